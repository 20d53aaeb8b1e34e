// A run's measured messages as HPCC's fct.txt with every field in HPCC's meaning (`--fct` of
// dlc-bench fanin and dlc-replay; docs/compare.md): sip, dip and sport as in the flow map;
// start_ns the post from the run's first post; fct_ns from the post to the sender's completion
// as HPCC counts it, the measured one-way latency plus the acknowledgement's (the calibration's
// base latency); standalone_fct_ns the message alone on the idle fabric the calibration
// describes (model::standalone_fct_s: 2 x latency + overhead + wire bytes / rate). Lines are in
// order of completion, as HPCC writes them.
#pragma once

#include <vector>

#include "flows/flow_map.hpp"
#include "model/calibration.hpp"
#include "model/hpcc_prediction.hpp"

namespace dlcnet::model {

std::vector<FctRecord> measured_fct(const FlowMap& map, const model::Calibration& c);

}  // namespace dlcnet::model
