// dlc-replay's command line, parsed and checked into plain data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apps/nrank_options.hpp"
#include "replay/replay_pattern.hpp"

namespace dlcnet::replay::cli {

struct Options {
  replay::Options replay;
  dlcnet::cli::NRankCli job;  // the options every N-rank tool shares
  bool check = false;         // --check: read the job and the options, send nothing
};

struct ParseResult {
  std::optional<Options> options;
  int exit_code = 0;  // when options is empty: 0 after --help, 2 for bad usage
};

ParseResult parse_options(int argc, const char* const* argv);

}  // namespace dlcnet::replay::cli
