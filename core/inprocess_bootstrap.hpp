// Bootstrap for ranks that are threads of one process, for tests (tests/*/: transports,
// patterns and the replay engine run in one process). dlc-bench --loopback does not use it:
// its two ends bootstrap over TCP on 127.0.0.1, so an end that fails closes its socket and the
// other stops at once.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "core/bootstrap.hpp"

namespace dlcnet {

// Returns `size` bootstraps sharing one exchange; give each to its own thread.
std::vector<std::unique_ptr<Bootstrap>> make_inprocess_group(
    int size, std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace dlcnet
