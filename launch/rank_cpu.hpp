// --cpu for a rank of any tool: bind its thread once its transport is open (auto places it by
// the verbs device) and say so on stderr, the same way in dlc-bench and dlc-replay.
#pragma once

#include <string>

#include "launch/cpu_binding.hpp"
#include "launch/transport_select.hpp"

namespace dlcnet {

// `spec`: --cpu's text (checked by the option); `slot`: the rank's index among those sharing
// the host; `who` starts the stderr line ("dlc-replay: rank 2"), none when `quiet`. Throws
// Error for a list naming a CPU this process may not use.
CpuBinding bind_rank_thread(const std::string& spec, const TransportChoice& choice, unsigned slot,
                            const std::string& who, bool quiet);

}  // namespace dlcnet
