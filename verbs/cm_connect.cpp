#include "verbs/cm_connect.hpp"

#include <arpa/inet.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/wire.hpp"
#include "verbs/qp_setup.hpp"
#include "verbs/rc_retry.hpp"
#include "verbs/verbs_error.hpp"

namespace dlcnet::verbs {
namespace {

constexpr uint32_t kPrivateMagic = 0x444C434D;  // "DLCM": a connect request from dlcnet
constexpr size_t kPrivateSize = 8;              // magic u32, rank u32

std::string addr_text(const sockaddr_in& a) {
  char ip[INET_ADDRSTRLEN] = "?";
  inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
  return std::string(ip) + ":" + std::to_string(ntohs(a.sin_port));
}

// rdma_destroy_id() waits until every event of the id is acknowledged: ack on every path.
struct AckGuard {
  rdma_cm_event* ev;
  ~AckGuard() { rdma_ack_cm_event(ev); }
};

std::string status_text(int status) {
  // Negative statuses are errno values (e.g. -ETIMEDOUT from address resolution); positive
  // ones on REJECTED are IB CM reject reasons.
  return status < 0 ? errno_text(-status) : "status " + std::to_string(status);
}

std::string missing_ranks(std::span<CmTarget> targets) {
  std::string out;
  for (const CmTarget& t : targets) {
    if (!t.established) out += (out.empty() ? "" : ", ") + std::to_string(t.rank);
  }
  return out;
}

rdma_cm_event* wait_event(rdma_event_channel* ch, int64_t deadline, const CmSetup& s,
                          std::span<CmTarget> targets) {
  for (;;) {
    rdma_cm_event* ev = nullptr;
    errno = 0;
    if (rdma_get_cm_event(ch, &ev) == 0) return ev;
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
      throw_verbs_error(s.device, "rdma_get_cm_event", last_errno());
    }
    const int64_t left_ms = (deadline - now_ns()) / 1'000'000;
    if (left_ms <= 0) {
      throw TimeoutError(std::string(s.device) + ": rdma_cm: no connection to rank(s) " +
                         missing_ranks(targets) + " within " + std::to_string(s.timeout_ms) +
                         " ms");
    }
    pollfd p{ch->fd, POLLIN, 0};
    ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left_ms, 1000)));
  }
}

void set_ack_timeout(rdma_cm_id* id, const char* device) {
  uint8_t timeout = ack_timeout();
  // Without it the kernel derives the timeout from the path's packet lifetime: still finite,
  // so a kernel that lacks the option is worth a warning, not a failure.
  if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &timeout, sizeof timeout)) {
    log_verbs_failure(device, "rdma_set_option(ACK_TIMEOUT=" + std::to_string(timeout) + ")",
                      last_errno());
  }
}

void check_device(rdma_cm_id* id, const CmSetup& s, const CmTarget& t) {
  // The address picks the device and port; a mismatch would put the QP on a device whose PD
  // and CQ are not ours, or make describe() report the wrong port.
  if (id->verbs != s.ctx || id->port_num != s.port) {
    throw Error(
        std::string(s.device) + " port " + std::to_string(s.port) +
        ": rdma_cm: the connection to rank " + std::to_string(t.rank) + " resolved to device " +
        (id->verbs ? ibv_get_device_name(id->verbs->device) : "none") + " port " +
        std::to_string(id->port_num) + " (is " + addr_text(s.local) + " on another interface?)");
  }
}

rdma_conn_param conn_param(const CmSetup& s, const uint8_t* priv, uint8_t priv_len) {
  rdma_conn_param p{};
  p.private_data = priv;
  p.private_data_len = priv_len;
  p.responder_resources = s.responder_resources;
  p.initiator_depth = s.initiator_depth;
  p.retry_count = retry_count();
  p.rnr_retry_count = kRnrRetry;
  p.flow_control = 1;
  return p;
}

void on_route_resolved(rdma_cm_id* id, CmTarget& t, const CmSetup& s) {
  check_device(id, s, t);
  s.create_qp(id);
  set_ack_timeout(id, s.device);
  WireWriter w;
  w.u32(kPrivateMagic).u32(static_cast<uint32_t>(s.my_rank));
  rdma_conn_param p = conn_param(s, w.bytes().data(), kPrivateSize);
  errno = 0;
  if (rdma_connect(id, &p) != 0) {
    throw_verbs_error(s.device, "rdma_connect(rank " + std::to_string(t.rank) + ")", last_errno());
  }
}

// A connect request: find the passive target whose rank it names. Returns nullptr (and the
// caller rejects) for requests that are not from a peer we wait for.
CmTarget* match_request(const rdma_cm_event* ev, std::span<CmTarget> targets) {
  const auto& conn = ev->param.conn;
  if (conn.private_data == nullptr || conn.private_data_len < kPrivateSize) return nullptr;
  WireReader r({static_cast<const uint8_t*>(conn.private_data), kPrivateSize}, "rdma_cm request");
  if (r.u32("magic") != kPrivateMagic) return nullptr;
  const auto rank = static_cast<int>(r.u32("rank"));
  for (CmTarget& t : targets) {
    if (!t.active && t.rank == rank && !t.id) return &t;
  }
  return nullptr;
}

void on_connect_request(rdma_cm_event* ev, CmTarget& t, const CmSetup& s) {
  t.id = CmId(ev->id);
  t.id->context = &t;
  check_device(t.id.get(), s, t);
  s.create_qp(t.id.get());
  set_ack_timeout(t.id.get(), s.device);
  rdma_conn_param p = conn_param(s, nullptr, 0);
  // Serve no more reads than the requester issues, issue no more than it serves.
  p.responder_resources = std::min(s.responder_resources, ev->param.conn.initiator_depth);
  p.initiator_depth = std::min(s.initiator_depth, ev->param.conn.responder_resources);
  errno = 0;
  if (rdma_accept(t.id.get(), &p) != 0) {
    throw_verbs_error(s.device, "rdma_accept(rank " + std::to_string(t.rank) + ")", last_errno());
  }
}

}  // namespace

CmId cm_listen(rdma_event_channel* ch, const CmSetup& s) {
  CmId id = create_cm_id(ch, nullptr, s.device);
  sockaddr_in local = s.local;
  local.sin_port = 0;
  errno = 0;
  if (rdma_bind_addr(id.get(), reinterpret_cast<sockaddr*>(&local)) != 0) {
    throw_verbs_error(s.device, "rdma_bind_addr(" + addr_text(local) + ")", last_errno());
  }
  if (rdma_listen(id.get(), 16) != 0) {
    throw_verbs_error(s.device, "rdma_listen(" + addr_text(local) + ")", last_errno());
  }
  return id;
}

uint16_t cm_local_port(rdma_cm_id* id) noexcept {
  return ntohs(rdma_get_src_port(id));
}

void cm_connect_all(rdma_event_channel* ch, rdma_cm_id* listener, std::span<CmTarget> targets,
                    const CmSetup& s) {
  const int64_t deadline = now_ns() + int64_t{s.timeout_ms} * 1'000'000;
  for (CmTarget& t : targets) {
    if (!t.active) continue;
    t.id = create_cm_id(ch, &t, s.device);
    sockaddr_in local = s.local;
    local.sin_port = 0;
    errno = 0;
    if (rdma_resolve_addr(t.id.get(), reinterpret_cast<sockaddr*>(&local),
                          reinterpret_cast<sockaddr*>(&t.remote), s.timeout_ms) != 0) {
      throw_verbs_error(s.device, "rdma_resolve_addr(" + addr_text(t.remote) + ")", last_errno());
    }
  }
  size_t pending = targets.size();
  while (pending > 0) {
    rdma_cm_event* ev = wait_event(ch, deadline, s, targets);
    CmId rejected;  // declared before the guard: destroyed only after the ack
    AckGuard guard{ev};
    if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
      CmTarget* t = ev->listen_id == listener ? match_request(ev, targets) : nullptr;
      if (t == nullptr) {
        rejected = CmId(ev->id);
        rdma_reject(ev->id, nullptr, 0);
        continue;
      }
      on_connect_request(ev, *t, s);
      continue;
    }
    auto* t = static_cast<CmTarget*>(ev->id->context);
    if (t == nullptr) continue;  // the listener's own events
    const std::string peer = "rank " + std::to_string(t->rank);
    switch (ev->event) {
      case RDMA_CM_EVENT_ADDR_RESOLVED:
        check_device(ev->id, s, *t);
        errno = 0;
        if (rdma_resolve_route(ev->id, s.timeout_ms) != 0) {
          throw_verbs_error(s.device, "rdma_resolve_route(" + peer + ")", last_errno());
        }
        break;
      case RDMA_CM_EVENT_ROUTE_RESOLVED:
        on_route_resolved(ev->id, *t, s);
        break;
      case RDMA_CM_EVENT_ESTABLISHED:
        if (!t->established) --pending;
        t->established = true;
        break;
      case RDMA_CM_EVENT_ADDR_ERROR:
      case RDMA_CM_EVENT_ROUTE_ERROR:
      case RDMA_CM_EVENT_CONNECT_ERROR:
      case RDMA_CM_EVENT_UNREACHABLE:
      case RDMA_CM_EVENT_REJECTED:
      case RDMA_CM_EVENT_DISCONNECTED:
      case RDMA_CM_EVENT_DEVICE_REMOVAL:
        throw Error(std::string(s.device) + ": rdma_cm: connecting " +
                    (t->active ? "to " + peer + " at " + addr_text(t->remote) : "from " + peer) +
                    ": " + rdma_event_str(ev->event) + " (" + status_text(ev->status) + ")");
      default:
        break;
    }
  }
}

}  // namespace dlcnet::verbs
