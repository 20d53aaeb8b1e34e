#include "apps/dlc_ns3/mirror_checks.hpp"

#include <algorithm>
#include <iostream>
#include <set>
#include <utility>

#include "apps/cli_main.hpp"
#include "core/error.hpp"

namespace dlcnet::ns3p {
namespace {

// UCX's rendezvous (a handshake through the receiver before the data) is not simulated: a
// message it carried is refused unless allowed, then said on stderr.
void check_rendezvous(const RunSettings& run, std::span<const Transfer> transfers,
                      const TransferNames& names, bool allow) {
  for (size_t i = 0; i < transfers.size(); ++i) {
    if (run.rendezvous_from == 0 || transfers[i].bytes < run.rendezvous_from) continue;
    const std::string what = run.rendezvous_field + ": UCX sent messages from " +
                             std::to_string(run.rendezvous_from) + " bytes on by rendezvous (" +
                             names.file + " " + names.item(i) + ": " +
                             std::to_string(transfers[i].bytes) +
                             " bytes), a handshake through the receiver this simulation does "
                             "not have";
    if (!allow) {
      throw Error(what + "; measure with UCX_RNDV_THRESH=inf, or --allow-rendezvous");
    }
    std::cerr << "dlc-ns3-predict: warning: " << what << ": simulated as eager\n";
    return;
  }
}

// One connection per direction is simulated: a run whose UCX carried both directions between
// two ranks on one connection is refused when data went both ways between a pair (a fan-in
// without --pull sends one way; its control messages are not flows).
void check_connections(const RunSettings& run, std::span<const Transfer> transfers,
                       const TransferNames& names) {
  if (!run.one_connection_per_peer) return;
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (size_t i = 0; i < transfers.size(); ++i) {
    const Transfer& t = transfers[i];
    seen.emplace(t.src, t.dst);
    if (!seen.contains({t.dst, t.src})) continue;
    throw Error(run.connections_field +
                ": 'peer': UCX carried both directions between two ranks "
                "on one connection, and " +
                names.file + " " + names.item(i) + " (host " + std::to_string(t.src) + " to " +
                std::to_string(t.dst) +
                ") goes against an earlier one; the simulation has one connection per direction: "
                "measure with --ucx-connections direction");
  }
}

}  // namespace

uint32_t check_mirrorable(const RunSettings& run, std::span<const Transfer> transfers,
                          const TransferNames& names, bool allow_rendezvous) {
  check_rendezvous(run, transfers, names, allow_rendezvous);
  uint32_t needed = 1;
  for (size_t i = 0; i < transfers.size(); ++i) {
    const Transfer& t = transfers[i];
    if (t.src == t.dst) {
      throw Error(names.file + ": " + names.item(i) + ": from host " + std::to_string(t.src) +
                  " to itself: the star has no such path");
    }
    needed = std::max({needed, t.src + 1, t.dst + 1});
  }
  check_connections(run, transfers, names);
  return needed;
}

uint32_t star_hosts(uint32_t asked, uint32_t needed, const std::string& file) {
  if (asked == 0) return needed;
  if (asked < needed) {
    throw cli::UsageError("--hosts " + std::to_string(asked) + ": " + file + " names host " +
                          std::to_string(needed - 1));
  }
  return asked;
}

}  // namespace dlcnet::ns3p
