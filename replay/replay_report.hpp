// Everything rank 0 reports about a run, assembled from the ranks' reports: the rank map, the
// clocks, replay fidelity, one-way latencies per pair, and the trace's statistics next to the
// replay's. Plain data in seconds and bytes; the console and JSON printers convert.
#pragma once

#include <string>
#include <vector>

#include "core/stats.hpp"
#include "replay/replay_clock.hpp"
#include "replay/replay_clock_sync.hpp"
#include "replay/replay_options.hpp"
#include "replay/replay_rank_map.hpp"
#include "replay/replay_results.hpp"
#include "replay/replay_timeline.hpp"
#include "trace/trace_stats.hpp"

namespace dlcnet::replay {

struct PairLatency {
  int32_t src = 0, dst = 0;
  uint64_t messages = 0, bytes = 0;
  LatencySummary one_way_s;
  double bound_s = 0;  // every one-way latency of the pair is within this of the truth
};

struct ClockReport {
  HostIdentity host;
  OffsetEstimate before, after;  // ping-pong estimates
  ClockModel model;              // what the latencies use
};

struct ReplayReport {
  // What ran.
  std::vector<std::string> inputs;
  PlanOptions options;
  Copies copies;
  std::string transport;         // chosen transport
  std::string transport_reason;  // why
  int world_size = 0;
  std::string rank_source;  // options, open-mpi, pmi, slurm, spawn
  // Measured.
  std::vector<RankReport> ranks;
  std::vector<ClockReport> clocks;
  std::vector<Flow> flows;  // every message, as its receiver saw it
  std::vector<PairLatency> pairs;
  LatencySummary sched_error_s, order_hold_s;
  uint64_t sends = 0, receives = 0, wrong = 0, split = 0, unreplayable = 0, duplicates = 0;
  double duration_s = 0;
  trace::JobStats trace_stats, replay_stats;
  bool ok = false;
  std::string verdict;  // one line: what is wrong, or the counts when all is well
};

// Fills the derived parts (flows, pairs, summaries, statistics, verdict) from ranks and clocks.
void analyse(ReplayReport& report, const trace::Job& job, const RankMap& map);

}  // namespace dlcnet::replay
