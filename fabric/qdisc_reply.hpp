// Parsing the kernel's answer to RTM_GETQDISC: pure, on bytes (tests build the messages).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "fabric/qdisc_sample.hpp"

namespace dlcnet::fabric {

struct QdiscReply {
  int error = 0;         // errno from an NLMSG_ERROR answer (positive); 0 when counters are set
  bool found = false;    // an RTM_NEWQDISC message was in the bytes
  int ifindex = 0;       // of the device the qdisc belongs to
  uint32_t handle = 0;   // tcm_handle, e.g. 0x80010000 for "8001:"
  uint32_t parent = 0;   // tcm_parent (TC_H_ROOT for a root qdisc)
  std::string kind;      // "tbf", "pfifo_fast", ...
  QdiscSample counters;  // t_ns left 0: the caller stamps it
};

// Reads the netlink messages in `bytes` (as one recv() returns them): the first RTM_NEWQDISC's
// kind and counters (TCA_STATS2 preferred, TCA_STATS otherwise; TCA_STATS_PKT64 for the packet
// count when present), or the error of an NLMSG_ERROR. Truncated or foreign bytes give
// found == false and error == 0.
QdiscReply parse_qdisc_reply(std::span<const uint8_t> bytes);

}  // namespace dlcnet::fabric
