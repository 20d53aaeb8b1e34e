// The QP attributes a run may ask for (perftest's -m, -T, -S): checked against the port once,
// and the MTU this rank offers its peers.
#pragma once

#include <infiniband/verbs.h>

#include <string>

#include "core/transport.hpp"
#include "verbs/qp_setup.hpp"

namespace dlcnet::verbs {

// Throws Error naming the flag: an MTU that is not an IB MTU or exceeds the port's active MTU
// (the path cannot run faster than the port), a traffic class or service level out of range,
// and -m/-T/-S with rdma_cm (librdmacm builds the address vector from the route itself).
void check_qp_options(const TransportOptions& opts, const std::string& device, uint8_t port,
                      const ibv_port_attr& attr);

// After connect(): throws Error naming the flag when the QP does not run with the traffic class
// or service level asked for (a driver may accept an attribute and drop it: rxe keeps no SL).
void check_qp_took(const TransportOptions& opts, const std::string& device, const QpSettings& qp);

// The MTU this rank offers: -m where given (checked above), else the port's active MTU.
ibv_mtu offered_mtu(const TransportOptions& opts, const ibv_port_attr& attr);

}  // namespace dlcnet::verbs
