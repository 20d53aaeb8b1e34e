// The rest of the generator: scheduler exchanges, time-ordering every node's records (as a
// capture writes them), clock skew, and the public entry points.
#include <numeric>

#include "core/error.hpp"
#include "trace/trace_synth_generator.hpp"

namespace dlcnet::trace {
namespace synth {

// Registration and barriers with the scheduler, as trace_sch_record.txt files hold them.
void Generator::scheduler_exchanges() {
  const uint16_t sched = job_.scheduler_rank();
  Node& scheduler = job_.nodes[sched];
  const uint32_t table = meta() + 24u * (static_cast<uint32_t>(job_.nodes.size()));
  auto control = [](Op op, uint16_t peer, uint32_t length, bool sends) {
    Record r;
    r.op = op;
    r.peer = peer;
    r.length = length;
    r.set_flag(Record::kSendFlag, sends);
    return r;
  };
  for (int step = 0; step < 3; ++step) {
    for (Node& n : job_.nodes) {
      if (n.role == Role::kScheduler) continue;
      if (step == 1 && n.role == Role::kServer) continue;  // the start barrier is the workers'
      const bool worker = n.role == Role::kWorker;
      const Op send = worker ? Op::kWorkerSendSch : Op::kServerSendSch;
      const Op recv = worker ? Op::kSchedulerToWorker : Op::kSchedulerToServer;
      const uint32_t reply = step == 0 ? table : meta();
      n.control.push_back(control(send, sched, meta() + 40, true));
      n.control.push_back(control(recv, sched, reply, false));
      scheduler.control.push_back(control(Op::kSchedulerComm, n.rank, meta() + 40, false));
      scheduler.control.push_back(control(Op::kSchedulerComm, n.rank, reply, true));
    }
  }
}

// Each node's records in its own time order (file order ties: a dependency is generated before
// its dependant), indices remapped, times moved to the epoch and the node's skewed clock.
void Generator::assemble() {
  std::vector<std::vector<uint32_t>> where(job_.nodes.size());
  for (size_t r = 0; r < job_.nodes.size(); ++r) {
    Node& n = job_.nodes[r];
    const auto count = static_cast<uint32_t>(n.records.size());
    std::vector<uint32_t> order(count);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return n.records[a].time_ns < n.records[b].time_ns;
    });
    std::vector<uint32_t>& inv = where[r];
    inv.resize(count);
    for (uint32_t p = 0; p < count; ++p) inv[order[p]] = p;
    const int64_t skew_us = std::llround((2.0 * rng_.uniform() - 1.0) * c_.clock_skew_s * 1e6);
    const int64_t base_us = c_.start_epoch_s * 1'000'000 + skew_us;
    std::vector<Record> records;
    records.reserve(count);
    std::vector<uint32_t> deps;
    deps.reserve(n.deps.size());
    for (uint32_t p = 0; p < count; ++p) {
      const uint32_t old = order[p];
      Record rec = n.records[old];
      const uint32_t end =
          old + 1 < count ? n.records[old + 1].dep_begin : static_cast<uint32_t>(n.deps.size());
      rec.dep_begin = static_cast<uint32_t>(deps.size());
      for (uint32_t k = n.records[old].dep_begin; k < end; ++k) deps.push_back(inv[n.deps[k]]);
      rec.time_ns = (base_us + rec.time_ns) * 1000;
      rec.line = 0;
      records.push_back(rec);
    }
    n.records = std::move(records);
    n.deps = std::move(deps);
  }
  for (uint32_t m = 0; m < msgs_.size(); ++m) {
    Message& msg = msgs_[m];
    msg.sender_record = where[msg.sender][msg.sender_record];
    msg.receiver_record = where[msg.receiver][msg.receiver_record];
    job_.nodes[msg.sender].records[msg.sender_record].message = m;
    job_.nodes[msg.receiver].records[msg.receiver_record].message = m;
  }
  job_.messages = std::move(msgs_);
}

Job Generator::run() {
  const uint64_t total = synth_record_count(c_);
  for (Node& n : job_.nodes) {
    if (n.role != Role::kScheduler)
      n.records.reserve(total / (2u * (n.role == Role::kWorker ? c_.workers : c_.servers)));
  }
  msgs_.reserve(total / 2);
  initialise();
  for (uint32_t it = 1; it <= c_.iterations; ++it) iterate(static_cast<int32_t>(it));
  // Worker 0 stops the servers with a last command each.
  for (uint16_t s = 0; s < c_.servers; ++s) command(ready_[0] + 10 + 5 * s, job_.server_rank(s));
  if (c_.scheduler_files) scheduler_exchanges();
  assemble();
  return std::move(job_);
}

}  // namespace synth

void check_config(const SynthConfig& c) {
  auto fail = [](const std::string& what) { throw Error("synth: " + what); };
  if (c.workers < 1 || c.servers < 1) fail("--workers and --servers must be at least 1");
  if (static_cast<uint32_t>(c.workers) + c.servers > 4096) fail("at most 4096 nodes");
  if (c.iterations < 1) fail("--iterations must be at least 1");
  if (c.model.params.empty()) fail("the model has no parameters");
  for (const ModelParam& p : c.model.params) {
    if (p.bytes + c.model.meta_bytes > UINT32_MAX) {
      fail("parameter " + p.name + " is larger than a trace length can hold (4 GiB)");
    }
  }
  if (!(c.compute_s >= 0) || !(c.update_s >= 0) || !(c.search_s >= 0) || !(c.think_s >= 0) ||
      !(c.latency_s >= 0)) {
    fail("times must be non-negative");
  }
  if (!(c.overlap >= 0 && c.overlap <= 1)) fail("--overlap must be in [0, 1]");
  if (!(c.jitter >= 0 && c.jitter < 1)) fail("--jitter must be in [0, 1)");
  if (!(c.bandwidth_Bps > 0)) fail("--bandwidth must be positive");
  if (!(c.clock_skew_s >= 0)) fail("--clock-skew must be non-negative");
  // The whole capture must fit the trace's clock (int64 ns from start_epoch_s): an upper bound
  // of its length, every key's exchange taking every time at once, stays under 100 years.
  double bytes = 0;
  for (const ModelParam& p : c.model.params) bytes += static_cast<double>(p.bytes);
  const double keys = static_cast<double>(c.model.params.size());
  const double per_iteration =
      (c.compute_s + keys * (c.update_s + c.search_s + c.think_s + 4 * c.latency_s) +
       2 * bytes / c.bandwidth_Bps) *
      (1 + c.jitter) * static_cast<double>(c.workers);
  if (!(per_iteration * c.iterations + c.clock_skew_s < 100 * 365.25 * 86400)) {
    fail(
        "the job would last longer than a trace's clock can count (100 years): fewer "
        "iterations or shorter times");
  }
  const uint64_t total = synth_record_count(c);
  if (total / c.servers > UINT32_MAX / 2) fail("too many records for one node's file");
}

uint64_t synth_record_count(const SynthConfig& c) {
  uint64_t slices = 0;
  for (const ModelParam& p : c.model.params) {
    const bool split = c.split_above != 0 && p.bytes > c.split_above && c.servers > 1;
    slices += split ? c.servers : 1;
  }
  const uint64_t worker_side = 2 * slices + c.workers * (2 * slices + 4 * slices * c.iterations);
  return 2 * worker_side + 8ull * c.servers;
}

Job synthesize(const SynthConfig& config) {
  check_config(config);
  synth::Generator g(config);
  return g.run();
}

}  // namespace dlcnet::trace
