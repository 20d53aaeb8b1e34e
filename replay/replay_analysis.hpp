// Everything rank 0 reports about a run, assembled from the ranks' reports: the rank map, the
// clocks, replay fidelity, one-way latencies per pair, and the trace's statistics next to the
// replay's. Plain data in seconds and bytes; the console and JSON printers convert.
#pragma once

#include <string>
#include <vector>

#include "core/clock_model.hpp"
#include "core/clock_sync.hpp"
#include "core/release_report.hpp"
#include "core/stats.hpp"
#include "flows/pair_latency.hpp"
#include "replay/replay_options.hpp"
#include "replay/replay_rank_map.hpp"
#include "replay/replay_results.hpp"
#include "replay/replay_timeline.hpp"
#include "trace/trace_stats.hpp"

namespace dlcnet::replay {

// Whether the replay's figures can be read as the trace's: its scheduling error (how late the
// posts were) against the think times it had to reproduce (docs/replay.md, "Is the replay
// faithful?"). A post late by e stretches the gap before it by e, so figures built from post
// times are only the trace's when e is small against those gaps.
struct Fidelity {
  std::string verdict;  // "reliable", "unreliable", or "no_think_times" (asap, or all dTime 0)
  double sched_error_p99_s = 0;
  double think_time_p50_s = 0;  // median of the nonzero think times; 0 when there are none
  uint64_t think_times = 0;     // nonzero think times, one per send of the trace
  double threshold_s = 0;       // kFidelityShare x think_time_p50_s: p99 must stay below it
  std::string reason;           // one sentence with the numbers
  std::vector<std::string> unreliable_figures;  // figure names (trace/figure_legend.hpp)
};
// Reliable when the p99 scheduling error is below this share of the median think time: then
// at least half of the gaps are stretched by less than this share at 99 % of the posts.
inline constexpr double kFidelityShare = 0.10;

// What the think times are, and which figures late posts stretch: a SketchDLC job's sends'
// dTimes (the per-iteration figures), or a Chakra job's compute nodes' durations (each rank's
// replay time and its compute, communication and overlap).
enum class JobKind { sketch, chakra };

// Pure: the verdict from the numbers. `think_time_p50_s` is the median of `think_times` nonzero
// think times (0 of them: no think time to reproduce; `mode` says why).
Fidelity judge_fidelity(double sched_error_p99_s, double think_time_p50_s, uint64_t think_times,
                        Mode mode, JobKind kind = JobKind::sketch);
// The trace's nonzero think times as this replay schedules them, in seconds, one per send
// record that carries a message: dag: dTime x time scale; timed: the gap from the node's
// previous send in trace time x time scale; asap: none.
std::vector<double> think_times_s(const trace::Job& job, const PlanOptions& options);

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
  Fidelity fidelity;    // whether the replay's figures are the trace's (not in `ok`)
};

// Fills the derived parts (flows, pairs, summaries, statistics, verdict) from ranks and clocks.
void analyse(ReplayReport& report, const trace::Job& job, const RankMap& map);
// The part of analyse() that needs no trace::Job: counts, duration, scheduling error and order
// holds, flows, pairs, and the verdict (ok).
void analyse_messages(ReplayReport& report);

}  // namespace dlcnet::replay
