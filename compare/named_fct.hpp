// The model's prediction of a replayed job as HPCC's fct.txt named after the replay's flow map
// (dlc-compare predict-job): a predicted message takes the sport of the measured flow with the
// same (src, dst, key, opnum), start times count from the first predicted post, and the lines
// are in order of completion, as HPCC writes them. Messages the map does not name are left out
// and counted.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "flows/flow_map.hpp"
#include "flows/hpcc_fct.hpp"
#include "model/calibration.hpp"
#include "model/message.hpp"

namespace dlcnet::compare {

struct NamedFct {
  std::vector<FctRecord> records;  // by start + fct, ties in the messages' order
  uint64_t unnamed = 0;            // messages with no flow of the map
  double origin_s = 0;             // the first predicted post: start_ns 0
};

// `key`, `opnum`: per message, its name in the replay's records (replay/job_messages.hpp).
// `latency_s`: the acknowledgement's one-way latency, added to each arrival as HPCC's fct does.
NamedFct name_prediction(const FlowMap& like, std::span<const model::Message> messages,
                         std::span<const int32_t> key, std::span<const int32_t> opnum,
                         const model::Prediction& prediction, double latency_s,
                         const model::Calibration& c);

}  // namespace dlcnet::compare
