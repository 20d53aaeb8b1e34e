// dlc-ns3-predict's command line: a run's flow.txt (the open loop: every message at its
// measured start) or a DLC job (--job, the closed loop: every message when the ones it waits
// for have arrived in the simulation).
#pragma once

#include <cstdint>
#include <string>

#include "apps/job_plan_options.hpp"
#include "core/star_ports.hpp"

namespace dlcnet::ns3p {

struct PredictOptions {
  std::string flows, calibration, run, out, queue;
  cli::JobPlanOptions job;  // --job and how the replay ran it
  std::string like;         // --job: the replay's flow map, the messages' names
  uint32_t hosts = 0;
  double rank_link_Bps = kStarVethRateBps;  // a veth's speed, above any tbf's
  bool allow_rendezvous = false;
};

// --job JOB --like RUN.map ...: the closed loop, fct.txt named after the flow map.
int run_job(const PredictOptions& o);

}  // namespace dlcnet::ns3p
