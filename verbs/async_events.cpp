#include "verbs/async_events.hpp"

#include <fcntl.h>

#include "verbs/handles.hpp"
#include "verbs/verbs_error.hpp"

namespace dlcnet::verbs {

void make_async_fd_nonblocking(ibv_context* ctx) {
  const int flags = fcntl(ctx->async_fd, F_GETFL);
  if (flags < 0 || fcntl(ctx->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    throw_verbs_error(device_name_of(ctx), "fcntl(async_fd, O_NONBLOCK)", last_errno());
  }
}

bool is_fatal_event(ibv_event_type type) noexcept {
  switch (type) {
    case IBV_EVENT_CQ_ERR:
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
    case IBV_EVENT_PATH_MIG_ERR:
    case IBV_EVENT_SRQ_ERR:
    case IBV_EVENT_PORT_ERR:
    case IBV_EVENT_DEVICE_FATAL:
      return true;
    default:
      return false;
  }
}

std::optional<AsyncFault> drain_async_events(ibv_context* ctx, AsyncFilter ours,
                                             const void* owner) noexcept {
  std::optional<AsyncFault> first;
  ibv_async_event ev{};
  // Non-blocking fd: returns -1 (EAGAIN) once the queue is empty.
  while (ibv_get_async_event(ctx, &ev) == 0) {
    if (!first && is_fatal_event(ev.event_type)) {
      AsyncFault f;
      f.type = ev.event_type;
      switch (ev.event_type) {
        case IBV_EVENT_CQ_ERR:
          f.cq = ev.element.cq;
          break;
        case IBV_EVENT_PORT_ERR:
          f.port = ev.element.port_num;
          break;
        case IBV_EVENT_DEVICE_FATAL:
        case IBV_EVENT_SRQ_ERR:
          break;
        default:
          f.qp = ev.element.qp;
      }
      if (ours(f, owner)) first = f;
    }
    ibv_ack_async_event(&ev);
  }
  return first;
}

}  // namespace dlcnet::verbs
