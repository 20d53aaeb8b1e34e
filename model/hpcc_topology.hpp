// HPCC's topology (`topology.txt`, TOPOLOGY_FILE) for hosts on one switch:
//   node_num switch_num link_num
//   switch ids
//   src dst rate delay error_rate    (one link a line)
// Hosts are nodes 0..N-1, the switch is node N. Every link runs at the calibration's rate; its
// delay is half the base one-way latency, so a host-to-host path's propagation delay is the
// calibration's latency (HPCC adds one packet's store-and-forward per hop on top).
#pragma once

#include <cstdint>
#include <ostream>

#include "model/calibration.hpp"

namespace dlcnet::model {

void write_topology_txt(std::ostream& out, uint32_t hosts, const Calibration& c);

}  // namespace dlcnet::model
