// `dlc-bench fanin`'s command line, parsed and checked into plain data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "apps/dlc_bench/job_options.hpp"
#include "patterns/fanin/fanin_job.hpp"

namespace dlcnet::fanin::cli {

struct Options {
  fanin::Options run;
  bench::JobOptions job;  // --rank, --world-size, --coordinator, --job-token, --spawn
  int workers = 0;        // --workers (needed with --spawn)
};

struct ParseResult {
  std::optional<Options> options;
  int exit_code = 0;  // when options is empty: 0 after --help, 2 for bad usage
};

// argv[1] is "fanin".
ParseResult parse_options(int argc, const char* const* argv);

}  // namespace dlcnet::fanin::cli
