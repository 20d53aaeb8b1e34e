// The console report of a replay: the run, the rank map and clocks, per-iteration overheads
// of the trace next to the replay's, replay fidelity per rank, one-way latency per pair, and
// an OK/FAILED line (completeness), then the fidelity verdict (whether the figures are the
// trace's).
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "replay/replay_analysis.hpp"

namespace dlcnet::replay {

// Per-iteration means over the workers (servers) whose iteration is complete.
struct IterationRow {
  int32_t iteration = 0;
  uint32_t workers = 0, servers = 0;
  double total_s = 0, comm_s = 0, compute_s = 0, overlap = 0, wait_s = 0;
  double sync_s = 0, update_s = 0, search_s = 0;
};
std::vector<IterationRow> iteration_rows(const trace::JobStats& stats);
// The mean of the rows that have workers (servers), as iteration 0.
IterationRow mean_row(const std::vector<IterationRow>& rows);

// "# fidelity: VERDICT: reason", and for "unreliable" a "# WARNING:" line naming the figures.
void print_fidelity_verdict(std::ostream& out, const Fidelity& fidelity);

void print_report(std::ostream& out, const ReplayReport& report, const trace::Job& job,
                  const RankMap& map);

// What a replay rank stands for in reports: "worker0", "job.3.et".
using RankNamer = std::function<std::string(int rank)>;
// The end of every replay's console report: per rank its messages and scheduling (the fidelity
// table), one-way latency per pair, the scheduling error, the OK/FAILED line and the fidelity
// verdict.
void print_outcome(std::ostream& out, const ReplayReport& report, const RankNamer& name);

}  // namespace dlcnet::replay
