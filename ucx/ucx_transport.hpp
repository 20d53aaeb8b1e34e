// dlcnet::Transport over UCX's UCP API (tag matching for send/recv, RMA for write/read).
//
// Semantics beyond the Transport interface:
// - Set-up: opts.ucx_tls and opts.device become UCX_TLS and UCX_NET_DEVICES of this context
//   only; empty ones leave the environment's UCX_* in charge. Unless the environment sets an
//   RC retry count, RC transports (when an RDMA device and UCX_TLS admit one) get a finite one
//   (6) so a dead peer fails instead of hanging on Soft-RoCE. connect() refuses peers whose
//   effective UCX_TLS / UCX_NET_DEVICES differ, naming both settings.
// - connect() returns only once every endpoint carried a message both ways and is flushed
//   (all lanes wired up), each wait bounded by connect_timeout_ms.
// - Completions: a send completes when its buffer may be reused (UCX local completion); a
//   recv when the data is in place; a read when the data has arrived. A SIGNALED write
//   completes when the data is visible at the target (ucp_put_nbx followed by
//   ucp_ep_flush_nbx), matching an RC write completion in verbs, so write latency and
//   "write, then notify" patterns mean the same on both transports. Unsignaled writes only
//   wait for local completion. UCX does not order RMA against tag messages; a completed
//   signaled write is the point after which a following send is ordered behind it.
// - Progress: UCX moves data only while its worker progresses, and a rendezvous send (above
//   UCX's threshold, e.g. 8-20 KiB over tcp and shared memory), an RMA emulated over active
//   messages, or an acknowledgement UCX owes the peer all need the sending side's progress.
//   poll() progresses; in addition, once connect() returned, a helper thread progresses the
//   worker whenever the caller made no datapath call during one of its check periods (1 ms,
//   stretched up to 8 ms while the caller keeps calling, so it rarely interrupts a busy
//   caller). So, as with verbs, a posted operation completes (within ~16 ms) even if its
//   poster then blocks elsewhere: a bootstrap barrier right after the last reply of a
//   ping-pong used to hang the peer waiting for that reply. The worker is therefore
//   UCS_THREAD_MODE_SERIALIZED and every datapath call takes one (uncontended) mutex; the
//   Transport itself is still used by one thread at a time.
// - max_message_size(): SIZE_MAX. UCX splits large messages itself (rendezvous fragments
//   sized for each lane, e.g. under rxe's 8 MiB limit), so callers never need to split.
// - describe(): JSON naming the UCX version, the requested and effective UCX_TLS /
//   UCX_NET_DEVICES, and per connected peer the lanes UCX chose (transport, device, use).
// - Error handling: endpoints use UCP_ERR_HANDLING_MODE_PEER, so a dead peer surfaces as error
//   completions and poll() returning -1. UCX 1.13's shared-memory transports cannot detect a
//   dead peer, so where only they are allowed (UCX_TLS=sm and the like) endpoints use mode
//   "none"; describe() reports the mode per peer. Between ranks of one host (one kernel, the
//   same namespaces: ucx_host_id.hpp) whose UCX_TLS allows shared memory (unset, "all", "sm",
//   ...) endpoints use mode "none" too, so UCX picks shared memory as ucx_perftest does; the job's
//   bootstrap, not UCX, then finds a dead peer. Ranks in different network namespaces of one
//   host (the namespace star) stay on the network.
#pragma once

#include <memory>
#include <string>

#include "core/transport.hpp"

namespace dlcnet {

// Creates a UCP context and worker (throws Error naming the failing UCX call).
std::unique_ptr<Transport> make_ucx_transport(const TransportOptions& opts);

// The version of the UCX library this process runs with (ucp_get_version_string()), e.g.
// "1.13.1": the "ucx_version" of the tools' report contexts.
std::string ucx_library_version();

}  // namespace dlcnet
