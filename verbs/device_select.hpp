// Which device, port and GID to use: what the options name, or by default the first device
// with an ACTIVE port and, on Ethernet, its RoCE v2 GID of an IPv4 address, so that RoCE v2
// NICs and Soft-RoCE work without flags.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/transport.hpp"
#include "verbs/gid.hpp"
#include "verbs/handles.hpp"

namespace dlcnet::verbs {

struct PortChoice {
  uint8_t port = 0;
  ibv_port_attr attr{};
  int gid_index = -1;
  GidBytes gid{};
  uint32_t gid_type = IBV_GID_TYPE_IB;  // enum ibv_gid_type
};

// The device TransportOptions::device names, or the first with an ACTIVE port (on
// TransportOptions::ib_port if set). Throws Error: "no RDMA device found ...", "no RDMA device
// 'mlx9'; devices: rxe0", or "no RDMA device has an ACTIVE port; devices: rxe0 (port 1:
// PORT_DOWN)".
Context open_selected_device(const TransportOptions& opts);

// Same choice among contexts already open (librdmacm's, for the rdma_cm path); returns the
// chosen one, still owned by librdmacm.
ibv_context* select_among(const std::vector<ibv_context*>& contexts, const TransportOptions& opts);

// Port and GID on the chosen device. Throws Error for a missing or inactive port, an empty or
// unreadable GID index, or (Ethernet) no RoCE v2 GID at all.
PortChoice choose_port_and_gid(ibv_context* ctx, const TransportOptions& opts);

const char* gid_type_name(uint32_t type) noexcept;
const char* link_layer_name(uint8_t link_layer) noexcept;

}  // namespace dlcnet::verbs
