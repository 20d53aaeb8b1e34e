#include "patterns/ring/ring_engine.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stop_budget.hpp"
#include "patterns/ring/ring_data.hpp"

namespace dlcnet::ring {
namespace {

// wr_id kinds; the index is (iteration << 16) | slot.
enum Kind : uint8_t { kSend = 1, kRecv = 2, kWrite = 3, kNotify = 4, kNotifyRecv = 5 };
constexpr uint64_t kSlotBits = 24;

uint64_t id(Kind k, uint64_t run, uint32_t slot) noexcept {
  return make_wr_id(k, (run << kSlotBits) | slot);
}

}  // namespace

RingEngine::RingEngine(const EngineContext& c)
    : c_(c),
      wire_(c.t, c.boot, c.idle, stop_budget(static_cast<int>(c.spec.timeout_s)).wait,
            [this](const Completion& x, int64_t now) { on_completion(x, now); }) {}

float* RingEngine::buffer(Buf b, unsigned parity) const noexcept {
  return reinterpret_cast<float*>(c_.mem + c_.map.offset(Piece{b, 0, 0}, parity));
}

void RingEngine::on_completion(const Completion& x, int64_t now) {
  const auto kind = static_cast<Kind>(kind_of(x.wr_id));
  const uint64_t index = index_of(x.wr_id);
  const uint64_t run = index >> kSlotBits;
  const auto slot = static_cast<uint32_t>(index & ((uint64_t{1} << kSlotBits) - 1));
  switch (kind) {
    case kRecv:
    case kNotifyRecv: {
      std::vector<int64_t>& a = arrival_[run & 1];
      if (slot < a.size()) a[slot] = now;
      return;
    }
    case kSend:
    case kWrite:
      if (cur_ && slot < cur_->slots.size()) cur_->slots[slot].complete_ns = now;
      if (kind == kWrite && !c_.t.orders_write_before_send() && slot < write_peer_.size()) {
        to_notify_.push_back(Pending{write_peer_[slot], slot});
      }
      break;
    case kNotify:
      // An empty message is its notification alone (send_segment); every notification of an
      // iteration completes within it (the wait for outstanding_).
      if (cur_ && slot < cur_->slots.size() && cur_->slots[slot].complete_ns < 0) {
        cur_->slots[slot].complete_ns = now;
      }
      break;
  }
  if (outstanding_ > 0) --outstanding_;
}

uint32_t RingEngine::messages(uint64_t count, uint64_t elems) const noexcept {
  const uint32_t n = pieces(count, elems);
  return c_.spec.op == Op::write ? std::max<uint32_t>(n, 1) : n;
}

void RingEngine::post_recvs(const SizeSetup& s, uint64_t run) {
  const unsigned p = run & 1;
  arrival_[p].assign(s.segs.total, -1);
  const uint64_t e = s.segs.elems;
  for (size_t i = 0; i < s.plan.steps.size(); ++i) {
    const Step& st = s.plan.steps[i];
    if (st.from < 0) continue;
    for (uint32_t j = 0; j < messages(st.recv.count, e); ++j) {
      const uint32_t slot = s.segs.base[i] + j;
      if (c_.spec.op == Op::write) {
        wire_.recv(st.from, c_.region, c_.map.notify_recv[p] + slot * kNotifyBytes, kNotifyBytes,
                   id(kNotifyRecv, run, slot));
      } else {
        const Piece x = segment(st.recv, e, j);
        wire_.recv(st.from, c_.region, c_.map.offset(x, p), x.count * sizeof(float),
                   id(kRecv, run, slot));
      }
    }
  }
}

void RingEngine::prime(const SizeSetup& first) {
  post_recvs(first, run_);
}

int64_t RingEngine::notify(int peer, uint32_t slot) {
  const uint64_t at = c_.map.notify_send + slot * kNotifyBytes;
  const uint64_t tag = run_;
  std::memcpy(c_.mem + at, &tag, sizeof tag);
  ++outstanding_;
  return wire_.send(peer, c_.region, at, kNotifyBytes, id(kNotify, run_, slot));
}

void RingEngine::flush_notifies() {
  while (!to_notify_.empty()) {
    const Pending n = to_notify_.front();
    to_notify_.pop_front();
    notify(n.peer, n.slot);
  }
}

// `peers`: the ranks the wait depends on, named when it runs out of time (core/stall_error.hpp).
void RingEngine::wait(const std::function<bool()>& done, const std::function<std::string()>& what,
                      std::vector<int> peers) {
  wire_.wait(
      [&] {
        flush_notifies();
        return done();
      },
      what, 1, [&peers] { return peers; });
}

void RingEngine::send_segment(const SizeSetup& cur, size_t i, uint32_t j, RunTimes& times) {
  const Step& s = cur.plan.steps[i];
  const unsigned p = run_ & 1;
  const Piece x = segment(s.send, cur.segs.elems, j);
  const uint32_t slot = cur.segs.base[i] + j;
  const uint64_t bytes = x.count * sizeof(float);
  const uint64_t local = c_.map.offset(x, p);
  if (c_.spec.op == Op::write && bytes == 0) {
    // An empty chunk's message (fewer elements than ranks) is its notification alone: the
    // receiver waits for it, so it keeps the chain of messages that holds every rank within an
    // iteration of its successor; without it a rank's writes ran two iterations ahead, into a
    // buffer its successor had not checked yet (issue 29).
    times.slots[slot].post_ns = notify(s.to, slot);
    return;
  }
  ++outstanding_;
  if (c_.spec.op == Op::send) {
    times.slots[slot].post_ns = wire_.send(s.to, c_.region, local, bytes, id(kSend, run_, slot));
    return;
  }
  write_peer_[slot] = s.to;
  const Piece there = segment(s.remote, cur.segs.elems, j);
  times.slots[slot].post_ns =
      wire_.write(s.to, c_.region, local, bytes, c_.map.offset(there, p), id(kWrite, run_, slot));
  // RC verbs delivers the notification after the write's data; UCX may carry the two on
  // different lanes, so there the notification waits for the write's completion.
  if (c_.t.orders_write_before_send()) notify(s.to, slot);
}

void RingEngine::one_run(const SizeSetup& cur, const SizeSetup* then, uint32_t t, bool fill,
                         RunTimes& times) {
  const unsigned p = run_ & 1;
  const Plan& plan = cur.plan;
  const uint64_t e = cur.segs.elems;
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
  times.slots.assign(cur.segs.total, SlotTimes{});
  write_peer_.assign(cur.segs.total, -1);
  cur_ = &times;
  outstanding_ = 0;
  times.entry_ns = now_ns();
  if (then) post_recvs(*then, run_ + 1);
  for (const Piece& x : plan.copies) {
    std::memcpy(out + x.off, in + x.off, x.count * sizeof(float));
  }
  const auto send_all = [&](size_t i, uint32_t from) {
    const Step& s = plan.steps[i];
    if (s.to < 0) return;
    for (uint32_t j = from; j < messages(s.send.count, e); ++j) send_segment(cur, i, j, times);
  };
  if (!plan.steps.empty()) send_all(0, 0);
  const std::vector<int64_t>& a = arrival_[p];
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const Step& s = plan.steps[i];
    const bool next = i + 1 < plan.steps.size() && plan.steps[i + 1].to >= 0;
    const uint32_t in_segs = s.from < 0 ? 0 : messages(s.recv.count, e);
    const uint32_t next_segs = next ? messages(plan.steps[i + 1].send.count, e) : 0;
    for (uint32_t j = 0; j < in_segs; ++j) {
      const uint32_t slot = cur.segs.base[i] + j;
      wait([&] { return a[slot] >= 0; },
           [&] {
             return std::string(s.phase) + " step " + std::to_string(i) + ", segment " +
                    std::to_string(j) + ": no message from rank " + std::to_string(s.from);
           },
           {s.from});
      times.slots[slot].arrival_ns = a[slot];
      if (s.reduce) {
        const Piece x = segment(s.recv, e, j);
        const uint64_t at = s.reduce_off + (x.off - s.recv.off);
        if (s.recv.buf == Buf::out) {
          accumulate(out + at, in + at, x.count);
        } else {
          add(out + at, in + at, stage + x.off, x.count);
        }
      }
      // The same segment of the next step is this one (ring) or independent of it (pairwise).
      if (j < next_segs) send_segment(cur, i + 1, j, times);
    }
    if (next && next_segs > in_segs) send_all(i + 1, in_segs);
  }
  // Sends that do not complete wait on their receivers: a frozen one is the rank to name.
  std::vector<int> receivers;
  for (const Step& st : cur.plan.steps)
    if (st.to >= 0 && std::find(receivers.begin(), receivers.end(), st.to) == receivers.end())
      receivers.push_back(st.to);
  wait([&] { return outstanding_ == 0; },
       [&] { return std::to_string(outstanding_) + " sends of this iteration did not complete"; },
       std::move(receivers));
  times.end_ns = now_ns();
  cur_ = nullptr;
  ++run_;
}

void RingEngine::run_size(const SizeSetup& cur, const SizeSetup* next, SizeTimes& out) {
  const uint32_t total = c_.spec.warmup + c_.spec.iterations;
  for (uint32_t k = 0; k < total; ++k) {
    const bool last = k + 1 == total;
    const uint32_t t = c_.spec.check ? k : 0;
    RunTimes times;
    const unsigned p = run_ & 1;
    one_run(cur, last ? next : &cur, t, c_.spec.check || k == 0, times);
    if (c_.spec.check) {
      out.wrong += c_.def.check(buffer(cur.plan.result, p), cur.layout, c_.rank, t);
      ++out.checked;
    }
    if (k >= c_.spec.warmup) out.runs.push_back(std::move(times));
  }
}

}  // namespace dlcnet::ring
