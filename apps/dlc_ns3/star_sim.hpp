// The namespace star of scripts/netns-star.sh in ns-3: one node per rank, a switch (a router
// node), a point-to-point link from each rank to it (a veth's speed by default) with half the
// calibrated one-way latency, ns-3's TbfQueueDisc with the star's rate, burst and limit on the
// switch's port toward rank 0 (every port with --all-ports), Linux-like TCP (the run's MSS,
// initial window and buffers; delayed ACK), one connection per (src, dst) pair carrying that
// pair's flows back to back from their flow.txt starts. No ns-3 type crosses this interface.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "apps/dlc_ns3/run_settings.hpp"
#include "flows/hpcc_flow.hpp"

namespace dlcnet::ns3p {

struct StarNetwork {
  uint32_t hosts = 0;
  // Each rank's link to the switch, goodput of full segments (dlc-ns3-predict
  // --rank-link-rate): a veth has no rate of its own, the star's tbf is its limit.
  double link_rate_Bps = 0;
  double base_latency_s = 0;  // one way, rank to rank (the calibration's)
  RunSettings run;
};

struct QueueSample {
  double t_s;    // from the flows' origin (flow.txt's 0)
  double bytes;  // the tbf's backlog in frame bytes, as Linux's tbf counts them
};

struct StarResult {
  std::vector<double> finish_s;    // per flow: its last byte acknowledged, from the origin
  std::vector<QueueSample> queue;  // the tbf toward rank 0, at every change
};

// Runs the flows (node ids < net.hosts) to completion; throws Error when one does not
// complete within 600 simulated seconds after the last start.
StarResult simulate_star(const StarNetwork& net, std::span<const HpccFlow> flows);

}  // namespace dlcnet::ns3p
