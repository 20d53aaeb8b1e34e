// `dlc-bench fanin` as a pattern on the runner (runner/runner.hpp): the server (rank 0) and
// the workers agree on the spec, connect the server to everyone and everyone to the server,
// run the solo and incast rounds, send their times to the server, which analyses and reports.
#pragma once

#include <memory>
#include <string>

#include "patterns/fanin/fanin_spec.hpp"
#include "runner/nrank_options.hpp"
#include "runner/pattern.hpp"

namespace dlcnet::fanin {

// What is the fan-in's own on the command line (the rest: runner::NRankOptions).
struct Options {
  FaninSpec spec;
  std::string qdisc_dev, qdisc_netns;  // --qdisc, --qdisc-netns (rank 0 samples)
  double qdisc_hz = 10000;
  double lead_us = 2000;  // instant release: how far ahead the server names each start
};

// Returns the exit code (rank 0's verdict on every rank); throws Error on failure.
int run_rank(const Options& o, const runner::NRankOptions& n, int argc, const char* const* argv);

}  // namespace dlcnet::fanin
