// Bootstrap for ranks that are threads of one process: tests, and `--loopback` runs.
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
