// One rank of `dlc-bench fanin` from start to end on the job layer (launch/job.hpp): join,
// agree on the spec, connect (the server to everyone, everyone to the server), align clocks,
// the solo and incast rounds, clocks again, gather at rank 0 and report.
#pragma once

#include <string>

#include "core/transport.hpp"
#include "launch/job.hpp"
#include "launch/rank_env.hpp"
#include "patterns/fanin/fanin_spec.hpp"

namespace dlcnet::fanin {

struct Options {
  FaninSpec spec;
  std::string transport_kind = "auto";
  TransportOptions transport;
  RankEnv env;
  std::string json_path, records_path, fct_path;
  std::string export_flows;            // HPCC flow.txt here and its flow map beside it (rank 0)
  std::string qdisc_dev, qdisc_netns;  // --qdisc, --qdisc-netns (rank 0 samples)
  double qdisc_hz = 10000;
  std::string star_links;        // --star-links PREFIX: rank 0 reads h<i> in PREFIX-h<i> (netem)
  std::string calibration_path;  // --fct: the fabric's latency and rate (docs/compare.md)
  uint32_t clock_samples = 32;
  IdlePolicy idle = IdlePolicy::automatic;
  double lead_us = 2000;  // instant release: how far ahead the server names each start
  bool quiet = false;
  std::string cpu = "auto";  // --cpu (launch/rank_cpu.hpp)
};

// Returns the exit code (rank 0's verdict on every rank); throws Error on failure.
int run_rank(const Options& o, int argc, const char* const* argv);

}  // namespace dlcnet::fanin
