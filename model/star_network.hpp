// The namespace star a run measured on (scripts/netns-star.sh; the run's JSON quotes its
// description as context.star) as the model's network: the star shapes only the switch's ports
// toward the hosts, so only those down links run at the calibration's rate. A host's up link
// (its veth toward the switch) and an unshaped port run at a veth's speed (kStarVethRateBps, as
// dlc-ns3-predict's default --rank-link-rate): a host sending to several peers at once is not
// limited by the sum of their rates (docs/compare.md).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/star_ports.hpp"
#include "model/calibration.hpp"
#include "model/network.hpp"

namespace dlcnet::model {

// `hosts` ranks on a star whose ports are `ports`: shaped down links at the calibration's rate,
// every other link at kStarVethRateBps (or the calibration's rate, if that is higher); the
// calibration's latency.
Network star_network(uint32_t hosts, const Calibration& c, const StarPorts& ports);

// The star of a dlcnet tool's JSON report `doc` (read from `file`), for `hosts` ranks. Throws
// Error naming the file and the field: no context.star (the run was not on a star), an
// unreadable description, ports of an unknown kind, fewer hosts than ranks.
Network star_network_from_run(const nlohmann::json& doc, const std::string& file, uint32_t hosts,
                              const Calibration& c);
// The same, reading the report at `path`.
Network read_star_network(const std::string& path, uint32_t hosts, const Calibration& c);

}  // namespace dlcnet::model
