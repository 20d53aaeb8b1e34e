// `dlc-bench fanin`'s command line, parsed and checked into plain data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apps/nrank_options.hpp"
#include "patterns/fanin/fanin_pattern.hpp"

namespace dlcnet::fanin::cli {

struct Options {
  fanin::Options fanin;
  dlcnet::cli::NRankCli job;  // the options every N-rank tool shares
  int workers = 0;            // --workers (needed with --spawn)
};

struct ParseResult {
  std::optional<Options> options;
  int exit_code = 0;  // when options is empty: 0 after --help, 2 for bad usage
};

// argv[1] is "fanin".
ParseResult parse_options(int argc, const char* const* argv);

}  // namespace dlcnet::fanin::cli
