#include "patterns/p2p/harness.hpp"

#include "core/clock.hpp"

namespace dlcnet {
namespace {

// Both ends quiet, buffers zeroed, both ends ready: markers of a previous run cannot be
// mistaken for this run's.
void fence_and_clear(PeerSession& s) {
  s.bootstrap().barrier();
  s.clear();
  s.bootstrap().barrier();
}

void write_records(RecordWriter& w, const PeerSession& s, const Measurement& m, uint64_t& seq) {
  const int me = s.rank();
  MessageRecord r;
  r.bytes = m.bytes;
  r.op = s.spec().op;
  // For a read the data flows from the peer to us.
  r.src = r.op == Op::read ? s.peer() : me;
  r.dst = r.op == Op::read ? me : s.peer();
  for (size_t i = 0; i < m.post_ns.size(); ++i) {
    r.seq = seq++;
    r.post_ns = m.post_ns[i];
    r.complete_ns = m.complete_ns[i];
    r.signaled = m.signaled[i] != 0;
    w.write(r);
  }
  w.flush();
}

}  // namespace

BenchResult run_bench(PeerSession& s, Pattern& p, RecordWriter* records,
                      const std::function<void(const SizeResult&)>& on_size, bool keep_samples) {
  BenchResult result;
  result.spec = s.spec();
  const BenchSpec& spec = s.spec();
  uint64_t seq = 0;
  const bool show_progress = ProgressLine::wanted(stderr);
  for (uint64_t size : spec.sizes) {
    fence_and_clear(s);
    if (spec.warmup > 0) {
      p.run(s, size, RunPlan{spec.warmup, 0}, nullptr);
      fence_and_clear(s);
    }
    Measurement m;
    m.bytes = size;
    const int64_t start = now_ns();
    RunPlan plan{spec.iterations, 0};
    if (spec.duration_s > 0) {
      plan.until_ns = start + static_cast<int64_t>(spec.duration_s * 1e9);
      m.reserve(1 << 20);
    } else {
      m.reserve(spec.iterations);
    }
    ProgressLine progress(stderr, "dlc-bench " + std::to_string(size) + " B",
                          plan.until_ns ? 0 : plan.count, start, plan.until_ns,
                          s.initiator() && show_progress);
    plan.progress = &progress;
    p.run(s, size, plan, s.initiator() ? &m : nullptr);
    progress.finish();
    s.bootstrap().barrier();
    if (!s.initiator()) continue;

    SizeResult r;
    r.bytes = size;
    r.iterations = m.post_ns.size();
    if (spec.kind == BenchKind::lat) {
      std::vector<double> lat(m.post_ns.size());
      for (size_t i = 0; i < lat.size(); ++i) {
        lat[i] = ns_to_s(m.complete_ns[i] - m.post_ns[i]) * p.latency_factor();
      }
      r.latency = summarize_latency(lat);
      r.latency_samples_s = std::move(lat);
    } else {
      // Peak over windows of one queue's worth of messages: the burst the NIC can absorb.
      r.bandwidth = summarize_bandwidth(m.post_ns, m.complete_ns, size, spec.tx_depth);
    }
    // The row first: a records file that fails to take this size loses no result.
    if (on_size) on_size(r);
    if (!keep_samples) r.latency_samples_s = {};
    result.sizes.push_back(r);
    if (records) write_records(*records, s, m, seq);
  }
  return result;
}

}  // namespace dlcnet
