#include "model/network.hpp"

#include <cmath>

#include "core/error.hpp"

namespace dlcnet::model {

Network uniform_network(uint32_t hosts, const Calibration& c) {
  Network n;
  n.up_Bps.assign(hosts, c.link_rate_Bps);
  n.down_Bps.assign(hosts, c.link_rate_Bps);
  if (c.bucket_bytes > 0) {
    n.up_bucket_bytes.assign(hosts, c.bucket_bytes);
    n.down_bucket_bytes.assign(hosts, c.bucket_bytes);
    n.burst_Bps = c.burst_rate_Bps;
  }
  n.latency_s = c.base_latency_s;
  return n;
}

void validate(const Network& n) {
  if (n.up_Bps.size() != n.down_Bps.size())
    throw Error("model network: as many up links as down links needed");
  if (n.hosts() == 0) throw Error("model network: no host");
  for (uint32_t h = 0; h < n.hosts(); ++h) {
    if (!(n.up_Bps[h] > 0) || !(n.down_Bps[h] > 0) || !std::isfinite(n.up_Bps[h]) ||
        !std::isfinite(n.down_Bps[h])) {
      throw Error("model network: host " + std::to_string(h) + ": link rates must be > 0");
    }
  }
  if (!(n.latency_s >= 0)) throw Error("model network: latency must be >= 0");
  for (const std::vector<double>* b : {&n.up_bucket_bytes, &n.down_bucket_bytes}) {
    if (b->size() > n.hosts()) throw Error("model network: more buckets than hosts");
    for (double x : *b)
      if (!(x >= 0) || !std::isfinite(x)) throw Error("model network: bucket must be >= 0");
  }
  if (!(n.burst_Bps >= 0) || !std::isfinite(n.burst_Bps))
    throw Error("model network: burst rate must be >= 0");
  if (n.port) {
    if (n.port->host >= n.hosts()) {
      throw Error("model network: bottleneck port towards host " + std::to_string(n.port->host) +
                  ": there are " + std::to_string(n.hosts()) + " hosts");
    }
    if (!(n.port->rate_Bps > 0)) throw Error("model network: bottleneck port rate must be > 0");
    if (!(n.port->buffer_bytes >= 0))
      throw Error("model network: bottleneck port buffer must be >= 0");
  }
}

std::string up_link_name(uint32_t host) {
  return "up " + std::to_string(host);
}
std::string down_link_name(uint32_t host) {
  return "down " + std::to_string(host);
}
std::string port_name(uint32_t host) {
  return "port " + std::to_string(host);
}

}  // namespace dlcnet::model
