// Which of the namespace star's links limit a rate, from its description (scripts/netns-star.sh,
// quoted as "star" in a run's JSON context): the star shapes only the switch's ports toward the
// hosts (a tbf, or an htb shared fairly, toward rank 0 or on every port); a host's veth toward
// the switch, its up link, has no rate of its own. The predictors that mirror a run's star
// (dlc-compare predict-job --run, dlc-ns3-predict) read it here.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace dlcnet {

// A veth's speed where a predictor needs one (40 Gbit/s, in payload bytes per second): above
// any tbf's, so an unshaped link is no bottleneck.
inline constexpr double kStarVethRateBps = 5e9;
// A TCP segment's headers as Linux sends them on the star (IPv4 20 + TCP 20 + timestamps 12),
// and what the tbf counts on a veth beyond the IP packet (Ethernet 14).
inline constexpr uint32_t kStarIpTcpHeaders = 52;
inline constexpr uint32_t kStarEthernetBytes = 14;

// How a shaped port serves its senders: one FIFO, or its rate shared fairly between source
// hosts or TCP flows (netns-star.sh --fair, --fair-flows).
enum class StarSharing { fifo, fair_hosts, fair_flows };

struct StarPorts {
  StarSharing sharing = StarSharing::fifo;
  bool all_shaped = false;  // the star's --all-ports; else only p0, the port toward rank 0
  // Whether the switch's port toward rank `rank` is shaped.
  bool shaped(unsigned rank) const noexcept { return all_shaped || rank == 0; }
};

// The description's "ports" and "shaped_ports"; throws Error naming `where` (the description,
// "run.json: context.star") and the field for a missing or unknown value.
StarPorts star_ports_from_json(const nlohmann::json& star, const std::string& where);

}  // namespace dlcnet
