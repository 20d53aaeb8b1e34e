// How dlc-replay ran a job (--map, --mode, --iterations, --time-scale; a Chakra job's
// --coll-size, --root, --comm-groups), for the tools that predict a replayed job the way it ran
// (dlc-compare predict-job, dlc-ns3-predict --job), and the job's messages under those options
// (replay/job_messages.hpp, replay/chakra_job_messages.hpp): one plan for both.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "apps/chakra_options.hpp"
#include "replay/job_messages.hpp"

namespace dlcnet::cli {

struct JobPlanOptions {
  std::vector<std::string> inputs;  // the job: a directory or trace files, as dlc-replay takes
  std::string map_spec, mode = "dag";
  uint32_t iterations = 0;
  double time_scale = 1.0;
  ChakraCollectiveText collectives;  // a Chakra job's --coll-size, --root, --comm-groups
};

// Adds --map, --mode, --iterations, --time-scale, --coll-size, --root and --comm-groups
// (dlc-replay's, with its limits) to `app`.
void add_job_plan_options(CLI::App& app, JobPlanOptions& o);

// What the model holds per trace record looped (a message is two records, its send and its
// receive): measured at about 190 bytes (predict-job of the lenet5 example at 2000 and 8000
// iterations: 390 bytes per message): the message and its names, dependencies, times, the
// predictor's state and the fct.txt record.
inline constexpr uint64_t kModelBytesPerRecord = 200;

struct PlannedJob {
  uint32_t ranks = 0;  // the replay's world size
  replay::JobMessages messages;
};

// Reads the job and resolves every rank's replay plan into messages; throws Error for a bad
// job (naming the file and line, or a Chakra job's file, node and field), map or a loop too
// large for this host's memory; UsageError (exit 2) for options the job's kind refuses (a
// Chakra job's --map and --iterations in dlc-replay's words, the Chakra options for another
// job) and a --root past a Chakra job's groups.
PlannedJob plan_job_messages(const JobPlanOptions& o);
// The Chakra branch of plan_job_messages (job_plan_chakra.cpp); `po` the plan's options.
PlannedJob plan_chakra_job_messages(const JobPlanOptions& o, const replay::PlanOptions& po);

}  // namespace dlcnet::cli
