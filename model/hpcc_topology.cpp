#include "model/hpcc_topology.hpp"

#include <cstdio>

#include "core/error.hpp"

namespace dlcnet::model {

void write_topology_txt(std::ostream& out, uint32_t hosts, const Calibration& c) {
  if (hosts == 0) throw Error("topology.txt: at least one host");
  const uint32_t sw = hosts;
  out << hosts + 1 << " 1 " << hosts << '\n' << sw << '\n';
  // ns-3 parses a rate and a time as a number with a unit; Gbps and ns keep them readable.
  char rate[64], delay[64];
  std::snprintf(rate, sizeof rate, "%.12gGbps", c.link_rate_Bps * 8 / 1e9);
  std::snprintf(delay, sizeof delay, "%.12gns", c.base_latency_s / 2 * 1e9);
  for (uint32_t h = 0; h < hosts; ++h)
    out << h << ' ' << sw << ' ' << rate << ' ' << delay << " 0\n";
}

}  // namespace dlcnet::model
