// dlc-bench's command line, parsed and validated into plain data.
#pragma once

#include <optional>
#include <string>

#include "patterns/p2p/bench_job.hpp"

namespace dlcnet::bench {

// Parses argv. Returns the options, or an exit code when the program should stop (--help: 0;
// bad usage: 2, with the message already printed on stderr naming the option).
struct ParseResult {
  std::optional<Options> options;
  int exit_code = 0;
};
ParseResult parse_options(int argc, const char* const* argv);

}  // namespace dlcnet::bench
