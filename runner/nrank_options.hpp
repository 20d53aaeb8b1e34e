// What every N-rank tool (dlc-bench fanin and ring, dlc-replay) asks of the runner, whatever
// its pattern: where the rank comes from, the transport, how waiting ranks idle, the clocks, the
// outputs and the time limit. One command-line module fills it (apps/nrank_options.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "core/transport.hpp"
#include "launch/job.hpp"
#include "launch/rank_env.hpp"

namespace dlcnet::runner {

struct NRankOptions {
  RankEnv env;
  std::string transport_kind = "auto";  // --transport: auto, verbs, ucx
  TransportOptions transport;
  std::string cpu = "auto";  // --cpu (launch/rank_cpu.hpp)
  IdlePolicy idle = IdlePolicy::automatic;
  uint32_t clock_samples = 32;   // ping-pongs per rank and clock round
  int timeout_s = 30;            // --timeout: every rank has stopped within it (core/stop_budget)
  std::string json_path;         // rank 0's report
  std::string records_path;      // every rank's records (%r or .rank<R>)
  std::string fct_path;          // rank 0: HPCC's fct.txt, with ...
  std::string calibration_path;  // ... the fabric's latency and rate (docs/compare.md)
  std::string export_flows;      // rank 0: HPCC's flow.txt here, its flow map beside it
  std::string star_links;        // rank 0 reads every rank's link on a namespace star (netem)
  bool quiet = false;            // only errors on the console
};

}  // namespace dlcnet::runner
