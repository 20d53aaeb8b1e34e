// What dlc-replay replays, behind what its pattern (replay_pattern.cpp) asks of it: a SketchDLC
// or native job (trace::Job, one rank per worker and server) or a Chakra job (one rank per
// `.et` file, or the ranks of native CSV version 2 files). The inputs' content decides which
// (trace::chakra::is_chakra_input).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "replay/replay_analysis.hpp"
#include "replay/replay_plan.hpp"
#include "runner/pattern.hpp"
#include "trace/chakra/chakra_collectives.hpp"

namespace dlcnet::replay {

class ReplayJob {
 public:
  virtual ~ReplayJob() = default;
  // Ranks the job needs.
  virtual int world_size() const = 0;
  // "3 messages, 3 ranks (2 workers, 1 server)": for --check.
  virtual std::string summary() const = 0;
  // Throws Error when `world` ranks cannot replay the job (one rank per node or file).
  virtual void check_world(int world) const = 0;
  // What rank `rank` stands for: "worker0", "allreduce.3.et".
  virtual std::string rank_name(int rank) const = 0;
  // What every rank must agree on: the fingerprint of the job and the options, field by field.
  virtual runner::Agreement agreement(const PlanOptions& options) const = 0;
  virtual RankPlan plan(int rank, const PlanOptions& options) const = 0;
  // Rank 0's report from every rank's (report.ranks, clocks and the run's fields filled):
  // analysed, printed when `print`, as JSON, with the flows (and their groups when asked).
  virtual runner::PatternReport report(ReplayReport& report, bool print, bool want_groups,
                                       const PlanOptions& options) const = 0;
};

// How a job is read: the inputs, and the options that apply to one kind only.
struct JobSource {
  std::vector<std::string> inputs;
  std::string map_spec;                          // SketchDLC/native: --map
  uint32_t iterations = 0;                       // SketchDLC/native: --iterations (0: as traced)
  trace::chakra::CollectiveOptions collectives;  // Chakra: --root, --coll-size
};

// Reads the job (throws Error naming what is wrong in the files, as dlc-trace validate does).
std::unique_ptr<ReplayJob> open_replay_job(const JobSource& source);

std::unique_ptr<ReplayJob> open_sketch_job(const JobSource& source);
std::unique_ptr<ReplayJob> open_chakra_job(const JobSource& source);

}  // namespace dlcnet::replay
