// The options every N-rank tool shares (dlc-bench fanin and ring, dlc-replay), defined once so
// that one name means one thing, with one help text and one range check, in all of them: how
// this process finds its job (--rank, --world-size, --coordinator, --job-token, or --spawn
// every rank on this host), the transport, the CPU, how waiting ranks idle, the clocks, the
// time limit and the outputs (runner/nrank_options.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "launch/rank_env.hpp"
#include "runner/nrank_options.hpp"

namespace dlcnet::cli {

inline constexpr int kMaxRanks = 4096;

struct NRankCli {
  runner::NRankOptions run;
  ExplicitRank given;  // after finish_nrank_options()
  bool spawn = false;
  int spawn_timeout_s = 3600;
  // As parsed, before finish_nrank_options() puts them into `given` and `run`.
  int rank = -1, world = -1;
  uint64_t token = 0;
  CLI::Option* token_option = nullptr;
  std::string idle = "auto";
};

// Short names where the tool has no other use for them: -i for --ib-port (the ring's -i is
// nccl-tests' --stepbytes), -c for --cpu (the ring's -c is nccl-tests' --check; perftest's -c is
// a connection type), -d and -t (nccl-tests' datatype and threads).
struct ShortNames {
  bool ib_port = false;
  bool cpu = false;
  bool ib_dev = true;    // -d (nccl-tests' datatype in the ring)
  bool tx_depth = true;  // -t (nccl-tests' threads in the ring)
};

void add_nrank_options(CLI::App& app, NRankCli& o, ShortNames s);
// After parsing: the explicit rank, world and token into `given`, --idle into `run`; --spawn
// refuses them. Throws Error.
void finish_nrank_options(NRankCli& o);

}  // namespace dlcnet::cli
