#include "apps/dlc_ns3/star_sim.hpp"

#include <algorithm>
#include <string>

#include "apps/dlc_ns3/star_session.hpp"
#include "core/error.hpp"

namespace dlcnet::ns3p {
namespace {

constexpr double kDrainS = 600.0;  // the most a flow may take after the last start

}  // namespace

StarResult simulate_star(const StarNetwork& net, std::span<const HpccFlow> flows) {
  StarResult out;
  out.finish_s.assign(flows.size(), -1);
  size_t left = flows.size();
  StarSession* session = nullptr;
  StarSession star(net, {.acked =
                             [&](size_t flow) {
                               out.finish_s[flow] = session->now_s();
                               if (--left == 0) session->stop();
                             },
                         .arrived = {}});
  session = &star;
  double last_start = 0;
  for (size_t i = 0; i < flows.size(); ++i) {
    const HpccFlow& f = flows[i];
    star.write_at(f.start_s, i, f.src, f.dst, f.size);
    last_start = std::max(last_start, f.start_s);
  }
  star.sample_queue(out.queue);
  if (!flows.empty()) star.run(last_start + kDrainS);
  if (left > 0) {
    throw Error("ns-3: " + std::to_string(left) + " of " + std::to_string(flows.size()) +
                " flows not complete " + std::to_string(kDrainS) + " s after the last start");
  }
  return out;
}

}  // namespace dlcnet::ns3p
