// `dlc-bench ring`'s command line, parsed and checked into plain data.
#pragma once

#include <optional>

#include "apps/dlc_bench/job_options.hpp"
#include "patterns/ring/ring_job.hpp"

namespace dlcnet::ring::cli {

struct Options {
  ring::Options run;
  bench::JobOptions job;  // --rank, --world-size, --coordinator, --job-token, --spawn
  int ranks = 0;          // --ranks (with --spawn)
};

struct ParseResult {
  std::optional<Options> options;
  int exit_code = 0;  // when options is empty: 0 after --help, 2 for bad usage
};

// argv[1] is "ring".
ParseResult parse_options(int argc, const char* const* argv);

}  // namespace dlcnet::ring::cli
