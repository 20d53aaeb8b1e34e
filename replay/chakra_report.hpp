// The report of a Chakra job's replay: the console lines and the JSON (docs/chakra.md,
// "Replay"). Rank 0's analysis is the one every replay has (analyse_messages), plus the
// collectives' spans; the SketchDLC-only parts (per-iteration figures, rank map) have no
// counterpart here.
#pragma once

#include <optional>
#include <ostream>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "replay/chakra_plan.hpp"
#include "replay/chakra_spans.hpp"
#include "replay/replay_analysis.hpp"
#include "replay/replay_report.hpp"

namespace dlcnet::replay {

struct ChakraJobFacts {
  int32_t ranks = 0;
  uint64_t nodes = 0;
  uint64_t collectives = 0;  // COMM_COLL_NODEs over all ranks
  ChakraMessages messages;
  trace::chakra::CollectiveOptions collectives_read;
  // Per rank, as its file records them (dlc-trace stats): COMP_NODE durations, and those of
  // its sends, receives and collectives.
  std::vector<uint64_t> compute_us, comm_us;
  std::vector<std::optional<uint64_t>> overlap_us;  // none without start times
};
ChakraJobFacts chakra_job_facts(const trace::chakra::Job& job,
                                const trace::chakra::CollectiveOptions& coll);

// The compute durations the replay reproduces (dag: every nonzero one, scaled; otherwise none),
// in seconds: the think times the fidelity verdict holds the scheduling error against.
std::vector<double> chakra_think_times_s(const trace::chakra::Job& job, const PlanOptions& o);

// The run, the readings of the collectives, the collectives' spans and the ranks' replay times
// beside the trace's durations, then the outcome every replay reports (print_outcome).
void print_chakra_report(std::ostream& out, const ReplayReport& report, const ChakraJobFacts& facts,
                         std::span<const CollectiveSpan> spans, const RankNamer& name);
nlohmann::json chakra_report_json(const ReplayReport& report, const ChakraJobFacts& facts,
                                  std::span<const CollectiveSpan> spans, const RankNamer& name);

}  // namespace dlcnet::replay
