// dlc-replay's command line, parsed and checked into plain data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "launch/rank_env.hpp"
#include "replay/replay_rank.hpp"

namespace dlcnet::replay::cli {

struct Options {
  RunOptions run;
  ExplicitRank given;  // --rank, --world-size, --coordinator, --job-token
  bool spawn = false;
  bool check = false;  // --check: read the job and the options, send nothing
  int spawn_timeout_s = 3600;
};

struct ParseResult {
  std::optional<Options> options;
  int exit_code = 0;  // when options is empty: 0 after --help, 2 for bad usage
};

ParseResult parse_options(int argc, const char* const* argv);

}  // namespace dlcnet::replay::cli
