#include "apps/dlc_ns3/star_outputs.hpp"

#include <sstream>

namespace dlcnet::ns3p {

void write_queue_csv(std::ostream& out, std::span<const QueueSample> queue) {
  out << "time_s,bytes\n";
  out.precision(12);  // ns over hours
  for (const QueueSample& q : queue) out << q.t_s << ',' << q.bytes << '\n';
}

std::string describe_star(const StarNetwork& net) {
  std::ostringstream s;
  s << net.hosts << " hosts (" << net.run.congestion_control << ", initcwnd " << net.run.initcwnd
    << ", tbf " << net.run.tbf_rate_Bps * 8 / 1e6 << " Mbit/s)";
  return s.str();
}

}  // namespace dlcnet::ns3p
