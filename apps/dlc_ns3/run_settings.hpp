// What the ns-3 predictor mirrors of a measured run, read from the run's JSON report (a
// dlc-bench fanin --json): the namespace star it ran on (context.star, written by
// scripts/netns-star.sh) and the TCP stacks its ranks measured with (context.tcp_stacks).
// Whatever the simulated star cannot mirror is refused with the field that says so.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/star_ports.hpp"

namespace dlcnet::ns3p {

// The star's shaped ports: one FIFO, or a rate shared fairly between source hosts or TCP flows
// (scripts/netns-star.sh --fair, --fair-flows).
using Ports = StarSharing;

struct RunSettings {
  std::string congestion_control;  // "cubic" or "reno"
  Ports ports = Ports::fifo;
  // The tbf as tc counts it: frames (Ethernet header included) on the switch's veth.
  double tbf_rate_Bps = 0, tbf_burst_bytes = 0, tbf_limit_bytes = 0;
  bool tbf_on_all_ports = false;  // the star's --all-ports; else only p0 (toward rank 0)
  uint32_t initcwnd = 10;  // segments, the largest route's; the kernel's default when none sets one
  uint32_t mtu = 1500;     // bytes, the smallest of the ranks' interfaces
  uint64_t rmem_max = 6291456, wmem_max = 4194304;  // the largest tcp_rmem[2], tcp_wmem[2]
  // UCX's tag messages from this size on go rendezvous (a handshake through the receiver before
  // the data, which the simulation does not have); 0: none do. `rendezvous_field` names where
  // the run said so.
  uint64_t rendezvous_from = 0;
  std::string rendezvous_field;
  // UCX carried both directions between two ranks on one connection (--ucx-connections peer,
  // UCX's default; a report without the field is read so); the simulation opens one per
  // direction. `connections_field` names where the run said so.
  bool one_connection_per_peer = true;
  std::string connections_field;
};

// Throws Error naming `file` and the field: no context.star (the run was not on a star),
// congestion control other than cubic or reno, ports of another kind, netem, verbs traffic, a
// malformed value. Rendezvous is recorded, not refused: whether it matters depends on the flows'
// sizes.
RunSettings run_settings_from_json(const nlohmann::json& doc, const std::string& file);
RunSettings read_run_settings(const std::string& path);

}  // namespace dlcnet::ns3p
