// `dlc-bench ring`'s command line, parsed and checked into plain data.
#pragma once

#include <optional>

#include "apps/nrank_options.hpp"
#include "patterns/ring/ring_pattern.hpp"

namespace dlcnet::ring::cli {

struct Options {
  RingSpec spec;
  dlcnet::cli::NRankCli job;  // the options every N-rank tool shares
  int ranks = 0;              // --ranks (with --spawn)
};

struct ParseResult {
  std::optional<Options> options;
  int exit_code = 0;  // when options is empty: 0 after --help, 2 for bad usage
};

// argv[1] is "ring".
ParseResult parse_options(int argc, const char* const* argv);

}  // namespace dlcnet::ring::cli
