// One Chakra Node message into the model's Node: its type, dependencies, times and the
// attributes of its kind. Every problem names the file, the node and the field.
#pragma once

#include <cstdint>
#include <string_view>

#include "trace/chakra/chakra_model.hpp"
#include "trace/chakra/et_def.pb.h"
#include "trace/trace_diagnostics.hpp"

namespace dlcnet::trace::chakra {

// Fills `out` (whose `index` is set) from `msg`, found in `file`, the file of `rank`, its names
// and dependency lists kept in `store` (the rank's). False when the node cannot be used (unknown
// type, a missing or bad attribute, a rank outside 32 bits); the problems are in `diag`.
bool decode_node(const pb::Node& msg, int32_t rank, std::string_view file, NodeStore& store,
                 Node& out, Diagnostics& diag);

}  // namespace dlcnet::trace::chakra
