// Reads the root qdisc of one device over rtnetlink, one request per reading.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "fabric/qdisc_reply.hpp"

struct nl_sock;

namespace dlcnet::fabric {

class QdiscQuery {
 public:
  // Opens a NETLINK_ROUTE socket in the calling thread's network namespace and finds `dev`
  // there. `netns` only names the namespace in messages. Throws Error when the device does
  // not exist or has no queue to read (noqueue).
  QdiscQuery(const std::string& dev, const std::string& netns);
  ~QdiscQuery();
  QdiscQuery(const QdiscQuery&) = delete;
  QdiscQuery& operator=(const QdiscQuery&) = delete;

  // One RTM_GETQDISC round trip (waits at most 1 s). Throws Error on a kernel error or timeout.
  QdiscReply read();

  int ifindex() const { return ifindex_; }

 private:
  std::string where() const;

  std::string dev_, netns_;
  nl_sock* sock_ = nullptr;
  int ifindex_ = 0;
  uint32_t seq_ = 0;
  alignas(8) std::array<uint8_t, 8192> buf_{};
};

}  // namespace dlcnet::fabric
