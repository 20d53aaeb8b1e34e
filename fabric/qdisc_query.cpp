#include "fabric/qdisc_query.hpp"

#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/errno.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/socket.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"
#include "fabric/netns.hpp"

namespace dlcnet::fabric {
namespace {

constexpr int kReplyTimeoutS = 1;

struct QdiscRequest {
  nlmsghdr h;
  tcmsg t;
};

}  // namespace

QdiscQuery::QdiscQuery(const std::string& dev, const std::string& netns)
    : dev_(dev), netns_(netns) {
  sock_ = nl_socket_alloc();
  if (!sock_) throw Error("qdisc sampler: nl_socket_alloc failed for " + where());
  try {
    if (const int rc = nl_connect(sock_, NETLINK_ROUTE); rc < 0)
      throw Error("qdisc sampler: netlink socket for " + where() + ": " + nl_geterror(rc));
    const timeval tv{kReplyTimeoutS, 0};
    if (setsockopt(nl_socket_get_fd(sock_), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0)
      throw_errno("qdisc sampler: SO_RCVTIMEO on the netlink socket for " + where());
    rtnl_link* link = nullptr;
    if (const int rc = rtnl_link_get_kernel(sock_, 0, dev.c_str(), &link); rc < 0) {
      throw Error("qdisc sampler: no device '" + dev + "' in " + netns_label(netns) + " (" +
                  nl_geterror(rc) + ")");
    }
    ifindex_ = rtnl_link_get_ifindex(link);
    rtnl_link_put(link);
    const QdiscReply first = read();
    if (!first.found) throw Error("qdisc sampler: no root qdisc on " + where());
    if (first.kind == "noqueue")
      throw Error("qdisc sampler: " + where() + " has no queue (noqueue): add a qdisc, e.g. a tbf");
  } catch (...) {
    nl_socket_free(sock_);
    throw;
  }
}

QdiscQuery::~QdiscQuery() {
  nl_socket_free(sock_);
}

std::string QdiscQuery::where() const {
  return "device '" + dev_ + "' in " + netns_label(netns_);
}

QdiscReply QdiscQuery::read() {
  // A get (not a dump) of the root qdisc: the kernel answers with this device's root alone.
  // NLM_F_ECHO makes it unicast the answer to us (without it, it only goes to RTNLGRP_TC).
  QdiscRequest req{};
  req.h.nlmsg_len = sizeof req;
  req.h.nlmsg_type = RTM_GETQDISC;
  req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ECHO;
  req.h.nlmsg_seq = ++seq_;
  req.t.tcm_family = AF_UNSPEC;
  req.t.tcm_ifindex = ifindex_;
  req.t.tcm_parent = TC_H_ROOT;
  const int fd = nl_socket_get_fd(sock_);
  if (::send(fd, &req, sizeof req, 0) != static_cast<ssize_t>(sizeof req))
    throw_errno("qdisc sampler: RTM_GETQDISC for " + where());
  for (;;) {
    const ssize_t n = ::recv(fd, buf_.data(), buf_.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      throw TimeoutError("qdisc sampler: no answer to RTM_GETQDISC within " +
                         std::to_string(kReplyTimeoutS) + " s for " + where());
    if (n < 0) throw_errno("qdisc sampler: reading the answer for " + where());
    if (static_cast<size_t>(n) < sizeof(nlmsghdr)) continue;
    nlmsghdr h;
    std::memcpy(&h, buf_.data(), sizeof h);
    if (h.nlmsg_seq != seq_) continue;  // a late answer to an earlier request
    QdiscReply r = parse_qdisc_reply({buf_.data(), static_cast<size_t>(n)});
    if (r.error != 0)
      throw Error("qdisc sampler: RTM_GETQDISC for " + where() + ": " + errno_text(r.error));
    return r;
  }
}

}  // namespace dlcnet::fabric
