// What the simulated star cannot mirror of a run's messages, refused before any simulation with
// the file and the message named (docs/compare.md, "ns-3 as a predictor"): a message from a host
// to itself, a message UCX sent by rendezvous (unless allowed: then a warning), data both ways
// between two ranks on one UCX connection. The same for a flow.txt (the open loop) and a job's
// messages (--job, the closed loop).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "apps/dlc_ns3/run_settings.hpp"

namespace dlcnet::ns3p {

struct Transfer {
  uint32_t src = 0, dst = 0;
  uint64_t bytes = 0;
};

// How errors name the messages: `file` and, per position, e.g. "flow 3".
struct TransferNames {
  std::string file;
  std::function<std::string(size_t)> item;
};

// Throws Error for what cannot be mirrored; returns the hosts the messages need (the largest id
// + 1, at least 1).
uint32_t check_mirrorable(const RunSettings& run, std::span<const Transfer> transfers,
                          const TransferNames& names, bool allow_rendezvous);

// The star's hosts: `asked` (--hosts; 0: `needed`), refused (a usage error) below `needed`.
uint32_t star_hosts(uint32_t asked, uint32_t needed, const std::string& file);

}  // namespace dlcnet::ns3p
