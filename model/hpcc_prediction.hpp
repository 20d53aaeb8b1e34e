// The model on HPCC's files: a flow.txt's flows as the model's messages, and a prediction
// written as HPCC's fct.txt would be (flows/hpcc_flow.hpp, flows/hpcc_fct.hpp; docs/model.md).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "flows/hpcc_fct.hpp"
#include "flows/hpcc_flow.hpp"
#include "model/calibration.hpp"
#include "model/message.hpp"

namespace dlcnet::model {

// One model message per flow, id = its position, posted at its start.
std::vector<Message> messages_from_flows(std::span<const HpccFlow> flows);

// The model's idle-network time of a message, HPCC's way: base round trip (two base one-way
// latencies, plus the per-message overhead) plus its header-inclusive bytes over the link rate.
double standalone_fct_s(uint64_t bytes, const Calibration& c) noexcept;

// The prediction of `flows` (predict() on messages_from_flows(flows)) as HPCC would write it:
// fct = arrival of the last byte + the acknowledgement's latency - start; lines in order of
// sender completion (ties: flow order).
std::vector<FctRecord> fct_from_prediction(std::span<const HpccFlow> flows,
                                           const Prediction& prediction, const Calibration& c);

}  // namespace dlcnet::model
