// One-way latency per (sender, receiver) pair over a set of flows, with the clock bound that
// holds for every latency of the pair.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/stats.hpp"
#include "flows/flow.hpp"

namespace dlcnet {

struct PairLatency {
  int32_t src = 0, dst = 0;
  uint64_t messages = 0, bytes = 0;
  LatencySummary one_way_s;
  double bound_s = 0;  // every one-way latency of the pair is within this of the truth
};

// One entry per pair that has flows, ordered by (src, dst). `duplicates` (when given) counts
// flows whose (src, dst, key, opnum) was seen before: a message received twice.
std::vector<PairLatency> pair_latencies(std::span<const Flow> flows, uint64_t* duplicates);

}  // namespace dlcnet
