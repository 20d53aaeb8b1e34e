// The replay iteration of each message of a replay's report, for --export-flows' groups: rank 0
// derives every rank's plan from the job (as every rank does for its own) and looks each
// message up by (sender, receiver, key, opnum) among the receivers' entries.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "flows/flow.hpp"
#include "replay/replay_plan.hpp"

namespace dlcnet::replay {

// Per flow: its replay iteration (1..N), or -1 for set-up and initialisation messages and for
// a message no plan names.
std::vector<int32_t> flow_iterations(std::span<const Flow> flows, const trace::Job& job,
                                     const RankMap& map, const PlanOptions& options,
                                     const Copies& copies);

}  // namespace dlcnet::replay
