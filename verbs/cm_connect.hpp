// The rdma_cm path of connect(): for each pair of ranks the lower one listens (on a port it
// publishes through the bootstrap) and the higher one resolves address and route and
// connects. librdmacm drives the QP through INIT, RTR and RTS. Every wait is bounded.
#pragma once

#include <netinet/in.h>

#include <cstdint>
#include <functional>
#include <span>

#include "verbs/cm_handles.hpp"

namespace dlcnet::verbs {

struct CmTarget {
  int rank = -1;
  bool active = false;   // this rank connects (it is the higher rank); the other listens
  sockaddr_in remote{};  // active only: the peer's listener address and port
  CmId id;               // out: the connected id, owning its QP
  bool established = false;
};

struct CmSetup {
  const char* device = "";
  ibv_context* ctx = nullptr;  // the device every id must resolve to
  uint8_t port = 1;            // and its port (the one whose GID gave `local`)
  sockaddr_in local{};         // this rank's address, port 0
  int my_rank = 0;
  int timeout_ms = 30000;
  uint8_t responder_resources = 1;  // the device's max_qp_rd_atom: reads it serves at once
  uint8_t initiator_depth = 1;      // the device's max_qp_init_rd_atom: reads it issues at once
  std::function<void(rdma_cm_id*)> create_qp;  // rdma_create_qp() with the transport's CQ and PD
};

// Binds to setup.local on an ephemeral port and listens. Throws Error naming the address.
CmId cm_listen(rdma_event_channel* ch, const CmSetup& setup);
uint16_t cm_local_port(rdma_cm_id* id) noexcept;  // host order

// Connects every target (active ones by connecting, passive ones by accepting the request
// that names their rank), all at once, until each is ESTABLISHED or setup.timeout_ms passes
// (TimeoutError naming the ranks still missing). Any CM error event throws Error naming the
// rank and the event.
void cm_connect_all(rdma_event_channel* ch, rdma_cm_id* listener, std::span<CmTarget> targets,
                    const CmSetup& setup);

}  // namespace dlcnet::verbs
