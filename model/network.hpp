// The fabric the model runs on: hosts on one switch. Host h has an up link (h to the switch)
// and a down link (the switch to h), each with a rate in bytes of wire per second; every path
// has the same base one-way latency. Optionally the switch's port towards one host is a
// bottleneck with its own rate and a buffer: it replaces that host's down link, and its fluid
// queue is followed over time (docs/model.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/calibration.hpp"

namespace dlcnet::model {

struct BottleneckPort {
  uint32_t host = 0;        // the port towards this host
  double rate_Bps = 0;      // drains at this rate
  double buffer_bytes = 0;  // lossless: a full buffer holds its senders back (0: no buffer)
};

struct Network {
  std::vector<double> up_Bps, down_Bps;  // one per host
  // Token buckets (model/link_buckets.hpp), bytes per link (empty or 0: none); a link whose
  // bucket holds tokens serves at burst_Bps.
  std::vector<double> up_bucket_bytes, down_bucket_bytes;
  double burst_Bps = 0;
  double latency_s = 0;  // base one-way latency of every path
  std::optional<BottleneckPort> port;
  // true: the messages of one (source, destination) pair share one connection and are served
  // one after another in the order they are posted (dlcnet's transports: one RC queue pair or
  // one UCX endpoint per peer). false: every message is a flow of its own, as in HPCC's
  // flow.txt (one queue pair per flow), and a pair's flows share its rate equally.
  bool connections = false;

  uint32_t hosts() const noexcept { return static_cast<uint32_t>(up_Bps.size()); }
};

// `hosts` hosts, every link at the calibration's rate and latency.
Network uniform_network(uint32_t hosts, const Calibration& c);

// Throws Error if a rate is not positive, the port's host does not exist, and so on.
void validate(const Network& n);

// Link names in results: "up 3", "down 3", "port 0".
std::string up_link_name(uint32_t host);
std::string down_link_name(uint32_t host);
std::string port_name(uint32_t host);

}  // namespace dlcnet::model
