// Runs a pattern over every size of the spec: warm-up, barriers, measurement, statistics and
// per-message records, done once here for every pattern.
#pragma once

#include <functional>
#include <vector>

#include "core/record.hpp"
#include "core/stats.hpp"
#include "patterns/p2p/pattern.hpp"

namespace dlcnet {

struct SizeResult {
  uint64_t bytes = 0;
  uint64_t iterations = 0;
  LatencySummary latency;      // seconds; lat tests
  BandwidthSummary bandwidth;  // bytes/s; bw tests
  // lat tests: every measured message's latency (seconds), in order; kept in BenchResult only
  // when run_bench() is asked to (-H), always seen by its on_size callback.
  std::vector<double> latency_samples_s;
};

struct BenchResult {
  BenchSpec spec;
  std::vector<SizeResult> sizes;  // initiator only; empty on the responder
};

// `records` (initiator only, may be null) gets one line per measured message, written after
// each size's measured loop so the loop itself pays nothing. `on_size` is called after each
// size, before its records are written, so reports can stream and keep every size measured
// even when the sweep fails later (or the records file fails to take this size).
// `keep_samples`: the result keeps every latency sample.
BenchResult run_bench(PeerSession& s, Pattern& p, RecordWriter* records,
                      const std::function<void(const SizeResult&)>& on_size = {},
                      bool keep_samples = false);

}  // namespace dlcnet
