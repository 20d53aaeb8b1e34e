// The reference model's speed (dlc-compare model-speed, bench/model_speed.sh): predict() timed
// on a seeded workload mix (model/workload_mix.hpp), in CPU seconds of this thread (the machine
// may be shared: wall time counts other people's work too) and wall seconds, and the timings as
// JSON.
#pragma once

#include <cstddef>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/message.hpp"
#include "model/workload_mix.hpp"

namespace dlcnet::model {

struct SpeedRun {
  double wall_s = 0, cpu_s = 0;
};

struct ModelSpeed {
  size_t messages = 0;
  Prediction prediction;  // the last run's
  std::vector<SpeedRun> runs;
};

// Predicts the mix `repeat` times on hosts at its link rate (2 us latency, 1 us overhead per
// message); after each run, one line on `progress` ("model-speed: N messages in ...").
ModelSpeed time_model(const MixSpec& mix, int repeat, std::ostream& progress);

// context, workload, the last run's events, solves and span, every run's timings and rates,
// and the best rate per CPU second.
nlohmann::json model_speed_report(nlohmann::json context, const MixSpec& mix,
                                  const ModelSpeed& speed);

}  // namespace dlcnet::model
