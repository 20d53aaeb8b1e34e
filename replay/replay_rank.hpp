// One rank of a replay from start to end, on the job layer (launch/job.hpp): load the job,
// join, agree, open and connect the transport, align clocks, release, replay, align clocks
// again, gather at rank 0 and report.
#pragma once

#include <csignal>
#include <string>
#include <vector>

#include "core/transport.hpp"
#include "launch/job.hpp"
#include "launch/rank_env.hpp"
#include "replay/replay_options.hpp"

namespace dlcnet::replay {

struct RunOptions {
  std::vector<std::string> inputs;  // job directory or files
  PlanOptions plan;                 // part_bytes is agreed between the ranks at run time
  std::string map_spec;
  std::string transport_kind = "auto";
  TransportOptions transport;
  RankEnv env;  // rank, world, coordinator, token and their source, resolved by the caller
  std::string json_path, records_path, fct_path;
  std::string export_flows;      // HPCC flow.txt here and its flow map beside it (rank 0)
  std::string calibration_path;  // --fct: the fabric's latency and rate (docs/compare.md)
  std::string star_links;        // --star-links PREFIX: rank 0 reads h<i> in PREFIX-h<i> (netem)
  uint32_t clock_samples = 32;
  int timeout_s = 30;
  uint32_t recv_ahead = 64;
  uint64_t part_limit = 0;  // split messages above this (0: the transport's maximum)
  IdlePolicy idle = IdlePolicy::automatic;
  Release release = Release::instant;
  bool quiet = false;
  std::string cpu = "auto";  // -c/--cpu (launch/cpu_binding.hpp)
  int fault_rank = -1;  // test hook: this rank kills or stops itself after fault_after completions
  int64_t fault_after = -1;
  int fault_signal = SIGKILL;  // ...by raising this signal (SIGSTOP: frozen)
};

// Runs this rank. Returns the exit code: 0 when the replay is complete and correct, 1 when
// rank 0 found it wrong. Throws Error for failures (the caller prints them, exit code 1).
int run_rank(const RunOptions& options, int argc, const char* const* argv);

}  // namespace dlcnet::replay
