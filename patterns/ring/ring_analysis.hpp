// From every rank's times to what `dlc-bench ring` reports, on rank 0: pure arithmetic.
//   time    nccl-tests' "time": per iteration, each rank's time from entering it to its result
//           and sends complete, averaged over ranks; the column is its mean over iterations,
//           and its distribution over iterations (p50, p99, cv) comes with it;
//   algbw   size / time; busbw = algbw x the collective's factor (nccl-tests' definitions);
//   span    per iteration on rank 0's clock, from the first rank entering it to the last one
//           finishing it (needs the clock alignment);
//   steps   per step, every message's (segment's) one-way latency (the sender's post to the arrival
//   at the
//           receiver, on rank 0's clock) and the slowest link: the pair with the largest median.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/clock_model.hpp"
#include "core/stats.hpp"
#include "flows/flow.hpp"
#include "patterns/ring/collective.hpp"
#include "patterns/ring/ring_times.hpp"

namespace dlcnet::ring {

struct Row {
  uint64_t bytes = 0, count = 0;            // what the layout moves: count x 4 bytes
  double time_s = 0, algbw = 0, busbw = 0;  // bytes per second
  LatencySummary iteration_s;               // per-iteration times (rank-averaged)
  double cv = 0;                            // stdev / mean of them
  uint64_t wrong = 0, checked = 0;          // over every rank and checked iteration
};

// `times[r]`: rank r's times of this size.
Row make_row(const CollectiveDef& def, const Layout& l, std::span<const SizeTimes> times);

struct StepStat {
  size_t step = 0;
  std::string phase;
  LatencySummary latency_s;  // every message of the step, every rank and iteration
  int slow_src = -1, slow_dst = -1;
  double slow_p50_s = 0;
  double bound_s = 0;  // |clock error| of any latency of the step is at most this
};

struct SizeResult {
  Row row;
  LatencySummary span_s;
  double span_bound_s = 0;
  std::vector<StepStat> steps;
  // Every message (segment) of every measured iteration on rank 0's clock: key = its step,
  // opnum = its iteration (0 = the first measured), for --export-flows.
  std::vector<Flow> flows;
};

// `plans[r]`: rank r's plan, cut into segments of `segment_bytes` (segments.hpp); `clocks[r]`:
// rank r's clock on rank 0's. Every segment is a message.
SizeResult analyse_size(const CollectiveDef& def, const Layout& l, std::span<const Plan> plans,
                        uint64_t segment_bytes, std::span<const SizeTimes> times,
                        std::span<const ClockModel> clocks);

}  // namespace dlcnet::ring
