#include "patterns/ring/ring_engine.hpp"

#include <cstring>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "patterns/ring/ring_data.hpp"

namespace dlcnet::ring {
namespace {

// wr_id kinds; the index is (iteration << 16) | step.
enum Kind : uint8_t { kSend = 1, kRecv = 2, kWrite = 3, kNotify = 4, kNotifyRecv = 5 };
constexpr uint64_t kStepBits = 16;
constexpr uint64_t kNotifyBytes = 8;

uint64_t id(Kind k, uint64_t run, size_t step) noexcept {
  return make_wr_id(k, (run << kStepBits) | step);
}

}  // namespace

RingEngine::RingEngine(const EngineContext& c)
    : c_(c),
      wire_(c.t, c.boot, c.idle, std::chrono::seconds(c.spec.timeout_s),
            [this](const Completion& x, int64_t now) { on_completion(x, now); }) {
  if (c_.map.max_steps >= (uint64_t{1} << kStepBits)) {
    throw Error("a collective of " + std::to_string(c_.map.max_steps) + " steps: at most " +
                std::to_string((uint64_t{1} << kStepBits) - 1));
  }
}

float* RingEngine::buffer(Buf b, unsigned parity) const noexcept {
  return reinterpret_cast<float*>(c_.mem + c_.map.offset(Piece{b, 0, 0}, parity));
}

void RingEngine::on_completion(const Completion& x, int64_t now) {
  const auto kind = static_cast<Kind>(kind_of(x.wr_id));
  const uint64_t index = index_of(x.wr_id);
  const uint64_t run = index >> kStepBits;
  const size_t step = index & ((uint64_t{1} << kStepBits) - 1);
  switch (kind) {
    case kRecv:
    case kNotifyRecv: {
      std::vector<int64_t>& a = arrival_[run & 1];
      if (step < a.size()) a[step] = now;
      return;
    }
    case kSend:
    case kWrite:
      if (cur_ && step < cur_->steps.size()) cur_->steps[step].complete_ns = now;
      if (kind == kWrite && step < write_done_.size()) write_done_[step] = 1;
      break;
    case kNotify:
      break;
  }
  if (outstanding_ > 0) --outstanding_;
}

void RingEngine::post_recvs(const SizeSetup& s, uint64_t run) {
  const unsigned p = run & 1;
  arrival_[p].assign(s.plan.steps.size(), -1);
  for (size_t i = 0; i < s.plan.steps.size(); ++i) {
    const Step& st = s.plan.steps[i];
    if (st.from < 0 || st.recv.count == 0) continue;
    if (c_.spec.op == Op::write) {
      wire_.recv(st.from, c_.region, c_.map.notify_recv[p] + i * kNotifyBytes, kNotifyBytes,
                 id(kNotifyRecv, run, i));
    } else {
      wire_.recv(st.from, c_.region, c_.map.offset(st.recv, p), st.recv.count * sizeof(float),
                 id(kRecv, run, i));
    }
  }
}

void RingEngine::prime(const SizeSetup& first) {
  post_recvs(first, run_);
}

void RingEngine::send_step(const Step& s, size_t i, unsigned p, RunTimes& times) {
  const uint64_t bytes = s.send.count * sizeof(float);
  const uint64_t local = c_.map.offset(s.send, p);
  ++outstanding_;
  if (c_.spec.op == Op::send) {
    times.steps[i].post_ns = wire_.send(s.to, c_.region, local, bytes, id(kSend, run_, i));
    return;
  }
  write_done_[i] = 0;
  times.steps[i].post_ns =
      wire_.write(s.to, c_.region, local, bytes, c_.map.offset(s.remote, p), id(kWrite, run_, i));
  if (!c_.t.orders_write_before_send()) {
    // UCX may carry the write and the notification on different lanes: the data must be in
    // place before the peer hears of it.
    wire_.wait([&] { return write_done_[i] != 0; },
               [&] {
                 return "write of step " + std::to_string(i) + " to rank " + std::to_string(s.to) +
                        " did not complete";
               });
  }
  const uint64_t slot = c_.map.notify_send + i * kNotifyBytes;
  const uint64_t tag = run_;
  std::memcpy(c_.mem + slot, &tag, sizeof tag);
  ++outstanding_;
  wire_.send(s.to, c_.region, slot, kNotifyBytes, id(kNotify, run_, i));
}

void RingEngine::one_run(const SizeSetup& cur, const SizeSetup* then, uint32_t t, bool fill,
                         RunTimes& times) {
  const unsigned p = run_ & 1;
  const Plan& plan = cur.plan;
  float* in = buffer(Buf::in, p);
  float* out = buffer(Buf::out, p);
  float* stage = buffer(Buf::stage, p);
  if (fill) {
    c_.def.fill(in, cur.layout, c_.rank, t);
    if (c_.spec.corrupt_rank == c_.rank) {
      const uint64_t g = c_.def.corrupt_index(cur.layout, c_.rank);
      if (g != kNoElement) in[g] += 1.0f;
    }
  }
  times.steps.assign(plan.steps.size(), StepTimes{});
  write_done_.assign(plan.steps.size(), 0);
  cur_ = &times;
  outstanding_ = 0;
  times.entry_ns = now_ns();
  if (then) post_recvs(*then, run_ + 1);
  for (const Piece& x : plan.copies) {
    std::memcpy(out + x.off, in + x.off, x.count * sizeof(float));
  }
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step& s = plan.steps[i];
    if (s.to >= 0 && s.send.count > 0) send_step(s, i, p, times);
    if (s.from < 0 || s.recv.count == 0) continue;
    const std::vector<int64_t>& a = arrival_[p];
    wire_.wait([&] { return a[i] >= 0; },
               [&] {
                 return std::string(s.phase) + " step " + std::to_string(i) +
                        ": no message from rank " + std::to_string(s.from);
               });
    times.steps[i].arrival_ns = a[i];
    if (s.reduce) {
      add(out + s.reduce_off, in + s.reduce_off, stage + s.recv.off, s.recv.count);
    }
  }
  wire_.wait(
      [&] { return outstanding_ == 0; },
      [&] { return std::to_string(outstanding_) + " sends of this iteration did not complete"; });
  times.end_ns = now_ns();
  cur_ = nullptr;
  ++run_;
}

SizeTimes RingEngine::run_size(const SizeSetup& cur, const SizeSetup* next) {
  SizeTimes out;
  const uint32_t total = c_.spec.warmup + c_.spec.iterations;
  for (uint32_t k = 0; k < total; ++k) {
    const bool last = k + 1 == total;
    const uint32_t t = c_.spec.check ? k : 0;
    RunTimes times;
    const unsigned p = run_ & 1;
    one_run(cur, last ? next : &cur, t, c_.spec.check || k == 0, times);
    if (c_.spec.check) {
      out.wrong += c_.def.check(buffer(Buf::out, p), cur.layout, c_.rank, t);
      ++out.checked;
    }
    if (k >= c_.spec.warmup) out.runs.push_back(std::move(times));
  }
  return out;
}

}  // namespace dlcnet::ring
