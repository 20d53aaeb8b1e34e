// The reference model's run: every message's predicted times on a network of hosts on one
// switch (model/network.hpp), flows sharing links max-min fairly, the rates re-solved at every
// instant a flow starts or ends or the bottleneck queue fills or empties (docs/model.md).
#pragma once

#include <span>

#include "model/calibration.hpp"
#include "model/message.hpp"
#include "model/network.hpp"

namespace dlcnet::model {

// Throws Error on a message naming a host the network lacks or a position not in the input,
// and on messages that can never be posted (a dependency cycle), naming one of them.
// Uses the calibration for the per-message overhead and the wire bytes; rates and latency come
// from the network.
Prediction predict(const Network& network, const Calibration& calibration,
                   std::span<const Message> messages);

}  // namespace dlcnet::model
