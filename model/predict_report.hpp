// dlc-compare predict's two pieces of model work besides predict(): the network its options
// describe for a flow list, and the JSON summary of a prediction (--json).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "flows/hpcc_flow.hpp"
#include "model/calibration.hpp"
#include "model/message.hpp"
#include "model/network.hpp"

namespace dlcnet::model {

struct NetworkRequest {
  uint32_t hosts = 0;            // 0: the largest host id the flows name, + 1
  int64_t port_host = -1;        // the bottleneck port's host; < 0: none
  double port_rate_Bps = 0;      // the port's rate; 0: the link rate
  double port_buffer_bytes = 0;  // the port's buffer; 0: a plain link
  std::string sharing = "flow";  // "flow" or "connection" (Network::connections)
};

// Hosts on one switch at the calibration's rate, at least as many as `flows` name (at least
// one). Throws Error naming --hosts and `flows_file` when r.hosts is too few for the flows.
Network network_for(const NetworkRequest& r, std::span<const HpccFlow> flows,
                    const std::string& flows_file, const Calibration& c);

// The summary: context, calibration, flows, sharing, hosts, span, events, solves, every link's
// use, the port's largest queue (with a port) and the files written (fct).
nlohmann::json predict_report(nlohmann::json context, const Calibration& c, size_t flows,
                              const std::string& sharing, const Network& net, const Prediction& p,
                              const std::string& fct_file);

}  // namespace dlcnet::model
