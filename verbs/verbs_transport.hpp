// The verbs transport: one RC queue pair per peer over libibverbs, connected out of band
// through the Bootstrap or, with TransportOptions::rdma_cm, through librdmacm.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/transport.hpp"

namespace dlcnet {

// Opens the device and port TransportOptions name (default: the first device with an ACTIVE
// port and its RoCE v2 GID of an IPv4 address) and allocates its protection domain. Throws
// Error naming the device, the call and the errno text, or listing the devices that exist.
std::unique_ptr<Transport> make_verbs_transport(const TransportOptions& opts);

// Names of the RDMA devices with at least one ACTIVE port, in ibv_get_device_list() order.
// Empty when there is none (or libibverbs finds no driver); never throws, so transport
// auto-selection can call it unconditionally.
std::vector<std::string> active_verbs_devices() noexcept;

}  // namespace dlcnet
