// Which transports and devices this rank lets UCX use, and the check that every rank agrees
// (UCX alone only says "Destination is unreachable" when they do not).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include <ucp/api/ucp.h>

#include "core/transport.hpp"

namespace dlcnet::ucx {

// The effective UCX_TLS and UCX_NET_DEVICES of one rank, as UCX will apply them.
struct Selection {
  std::string tls;
  std::string net_devices;
  bool operator==(const Selection&) const = default;
};

// rxe treats an RC retry count of 7 as "retry for ever", so a dead peer would hang the sender
// instead of failing; 6 is the largest finite value.
inline constexpr const char* kFiniteRcRetryCount = "6";

// Writes opts.ucx_tls to TLS and opts.device to NET_DEVICES of `config` (only this context,
// unlike setenv).
void apply_options(ucp_config_t* config, const TransportOptions& opts);

// Sets the finite RC retry count unless the environment sets one, or no RC transport can be
// used under `selection` on this machine (UCX warns about settings no transport takes).
// Returns whether it was set.
bool apply_finite_rc_retry(ucp_config_t* config, const Selection& selection);

// Whether UCX may open an interface on an RDMA device under `selection` on this machine (an
// RC, UD or DC transport admitted, and a device of /sys/class/infiniband admitted).
bool may_use_rdma(const Selection& selection);

// UCX pins pools of its own on RDMA devices and, when the locked-memory limit stops it, logs
// an error per try and can retry for ever. Empty when UCX cannot use an RDMA device here or
// `pinnable_bytes` (core/memlock.hpp) is at least kMemlockEnoughForUcx; otherwise a warning
// naming the limit and both fixes.
inline constexpr uint64_t kMemlockEnoughForUcx = uint64_t{1} << 30;
std::string memlock_warning(const Selection& selection, uint64_t pinnable_bytes);

// UCX only warns about a device of UCX_NET_DEVICES that does not exist and runs on others: the
// devices of `devices` (comma-separated, each NAME or NAME:PORT; "all" and "" pass) that are
// neither a network interface of this namespace nor an RDMA device, for an error naming them.
std::vector<std::string> unknown_net_devices(const std::string& devices);

// Reads the two settings back from the configuration (so UCX's config files and the
// environment count as well as our overrides).
Selection effective_selection(const ucp_config_t* config);

// Whether a UCX_TLS list ("tcp,self", "sm", "rc_verbs,tcp:aux", "^ib") lets UCX use one of
// `names`: an item names one ("tcp:aux" counts as "tcp"), or the list is a negation ("all but
// ..."), which leaves them in.
bool tls_allows(const std::string& tls, std::initializer_list<const char*> names);

// Empty when both ranks' lists agree (as sets: "tcp,self" equals "self,tcp"); otherwise a
// message naming both choices, e.g. "rank 1 uses UCX_TLS=tcp, this rank uses UCX_TLS=shm: set
// the same on every rank".
std::string selection_mismatch(const Selection& mine, const Selection& peer, int peer_rank);

}  // namespace dlcnet::ucx
