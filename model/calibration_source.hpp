// Where a calibration came from (`dlc-compare calibrate` writes it under "source"): for each
// dlc-bench report, its file, test, host, transport and the lanes it used, the TCP congestion
// control and network namespace (netns) it ran in, and the namespace star's description when it ran
// on one (core/star_description.hpp). What a report does not say is left out, never guessed.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "model/bench_calibration.hpp"

namespace dlcnet::model {

nlohmann::json calibration_source(const std::vector<BenchReport>& reports);

}  // namespace dlcnet::model
