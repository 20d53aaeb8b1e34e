// Runs dlc-bench as server, client or both (--loopback); returns the process exit code.
#pragma once

#include "apps/dlc_bench/options.hpp"

namespace dlcnet::bench {

int run(const Options& o, int argc, const char* const* argv);

}  // namespace dlcnet::bench
