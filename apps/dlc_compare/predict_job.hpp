// dlc-compare predict-job's options and the job it predicts, shared by the command
// (cmd_predict_job.cpp: the options, a SketchDLC or native job, the model and fct.txt) and its
// Chakra branch (predict_job_chakra.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/chakra_options.hpp"
#include "replay/job_messages.hpp"

namespace dlcnet::compare::cli {

struct PredictJobOptions {
  std::vector<std::string> inputs;
  std::string like, calibration, out, map_spec, mode = "dag", sharing = "connection";
  uint32_t iterations = 0;
  double time_scale = 1.0;
  dlcnet::cli::ChakraCollectiveText collectives;  // Chakra jobs: --coll-size, --root, --comm-groups
};

// What the model holds per trace record looped (a message is two records, its send and its
// receive): measured at about 190 bytes (predict-job of the lenet5 example at 2000 and 8000
// iterations: 390 bytes per message): the message and its names, dependencies, times, the
// predictor's state and the fct.txt record.
inline constexpr uint64_t kModelBytesPerRecord = 200;

// The job as the model's messages, and its ranks.
struct JobToPredict {
  replay::JobMessages messages;
  int world = 0;
};

// A Chakra job (trace::chakra::is_chakra_input): read and checked as dlc-replay reads it, its
// messages checked against this host's memory, resolved (replay/chakra_job_messages.hpp).
// Throws UsageError (exit 2) for options a Chakra job refuses (--map, --iterations, as
// dlc-replay words them) and a --root past its groups; Error (exit 3) for a job with errors,
// naming the file, the node and the field.
JobToPredict chakra_job_to_predict(const PredictJobOptions& o, const replay::PlanOptions& po);

}  // namespace dlcnet::compare::cli
