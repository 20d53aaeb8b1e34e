// Asynchronous device events (QP fatal, port down, CQ overrun) read without a thread: the
// context's async fd is made non-blocking and the transport drains it every so many poll()
// calls. Without this, a QP that died with no outstanding request would look idle for ever.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <optional>
#include <string>

namespace dlcnet::verbs {

struct AsyncFault {
  ibv_event_type type = IBV_EVENT_DEVICE_FATAL;
  ibv_qp* qp = nullptr;  // for QP events
  ibv_cq* cq = nullptr;  // for CQ events
  int port = 0;          // for port events
};

// Throws Error naming the device if the fd cannot be switched.
void make_async_fd_nonblocking(ibv_context* ctx);

// Events after which the affected QP, CQ, port or device no longer moves data.
bool is_fatal_event(ibv_event_type type) noexcept;

// Decides whether a fatal event concerns the caller: with rdma_cm, librdmacm shares one
// context among every user in the process, so events for other QPs arrive here too.
using AsyncFilter = bool (*)(const AsyncFault& fault, const void* owner) noexcept;

// Reads and acknowledges every pending event; returns the first fatal one `ours` accepts.
// Other events (COMM_EST, PORT_ACTIVE, GID_CHANGE, ...) are acknowledged and dropped.
std::optional<AsyncFault> drain_async_events(ibv_context* ctx, AsyncFilter ours,
                                             const void* owner) noexcept;

}  // namespace dlcnet::verbs
