// What dlc-ns3-predict writes besides fct.txt, the same in both modes: the tbf's backlog as
// the model's queue CSV (time_s,bytes) and the star it simulated, in words.
#pragma once

#include <ostream>
#include <span>
#include <string>

#include "apps/dlc_ns3/star_sim.hpp"

namespace dlcnet::ns3p {

void write_queue_csv(std::ostream& out, std::span<const QueueSample> queue);

// "5 hosts (cubic, initcwnd 10, tbf 100 Mbit/s)".
std::string describe_star(const StarNetwork& net);

}  // namespace dlcnet::ns3p
