// --cpu for a rank of any tool: bind its thread once its transport is open (auto places it by
// the verbs device) and say so on stderr, the same way in dlc-bench and dlc-replay.
#pragma once

#include <string>

#include "launch/cpu_binding.hpp"
#include "launch/transport_select.hpp"

namespace dlcnet {

// `spec`: --cpu's text (checked by the option); `slot`: the rank's index among the `host_ranks`
// sharing the host (0: unknown); `who` starts the stderr line ("dlc-replay: rank 2"), none when
// `quiet`. Throws Error for a list naming a CPU this process may not use.
CpuBinding bind_rank_thread(const std::string& spec, const TransportChoice& choice, unsigned slot,
                            unsigned host_ranks, const std::string& who, bool quiet);

}  // namespace dlcnet
