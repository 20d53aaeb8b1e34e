// How dlc-replay ran a job (--map, --mode, --iterations, --time-scale), for the tools that
// predict a replayed job the way it ran (dlc-compare predict-job, dlc-ns3-predict --job), and
// the job's messages under those options (replay/job_messages.hpp): one plan for both.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "replay/job_messages.hpp"

namespace dlcnet::cli {

struct JobPlanOptions {
  std::vector<std::string> inputs;  // the job: a directory or trace files, as dlc-replay takes
  std::string map_spec, mode = "dag";
  uint32_t iterations = 0;
  double time_scale = 1.0;
};

// Adds --map, --mode, --iterations and --time-scale (dlc-replay's, with its limits) to `app`.
void add_job_plan_options(CLI::App& app, JobPlanOptions& o);

struct PlannedJob {
  uint32_t ranks = 0;  // the replay's world size
  replay::JobMessages messages;
};

// Reads the job and resolves every rank's replay plan into messages; throws Error for a bad
// job, map or a loop too large for this host's memory.
PlannedJob plan_job_messages(const JobPlanOptions& o);

}  // namespace dlcnet::cli
