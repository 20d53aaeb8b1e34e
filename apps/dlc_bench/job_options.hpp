// The options every N-rank subcommand of dlc-bench shares (fanin, ring), defined once so that
// one name means one thing in all of them: how this process finds its job (--rank,
// --world-size, --coordinator, --job-token, or --spawn every rank on this host) and which
// transport carries the data.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "core/transport.hpp"
#include "launch/rank_env.hpp"

namespace dlcnet::bench {

inline constexpr int kMaxRanks = 4096;

struct JobOptions {
  ExplicitRank given;
  bool spawn = false;
  int spawn_timeout_s = 3600;
  // As parsed, before finish_job_options() puts them into `given`.
  int rank = -1, world = -1;
  uint64_t token = 0;
  CLI::Option* token_option = nullptr;
  std::string cpu = "auto";  // --cpu (no -c: ring's -c is nccl-tests' --check)
};

void add_job_options(CLI::App& app, JobOptions& o);
// `short_ib_port`: -i is --ib-port's short name where the subcommand has no other use for it.
void add_transport_options(CLI::App& app, std::string& kind, TransportOptions& t,
                           bool short_ib_port);
// After parsing: the explicit rank, world and token into `given`; --spawn refuses them.
// Throws Error.
void finish_job_options(JobOptions& o);

}  // namespace dlcnet::bench
