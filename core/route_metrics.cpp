#include "core/route_metrics.hpp"

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <string>

namespace dlcnet {
namespace {

// Closes the socket on every path.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// The metrics nested in RTA_METRICS: initcwnd, initrwnd, mtu (null where unset).
void add_metrics(nlohmann::json& route, const rtattr* nested) {
  int len = static_cast<int>(RTA_PAYLOAD(nested));
  for (const rtattr* a = static_cast<const rtattr*>(RTA_DATA(nested)); RTA_OK(a, len);
       a = RTA_NEXT(a, len)) {
    if (RTA_PAYLOAD(a) < sizeof(uint32_t)) continue;
    uint32_t v = 0;
    std::memcpy(&v, RTA_DATA(a), sizeof v);
    if (a->rta_type == RTAX_INITCWND) route["initcwnd"] = v;
    if (a->rta_type == RTAX_INITRWND) route["initrwnd"] = v;
    if (a->rta_type == RTAX_MTU) route["mtu"] = v;
  }
}

// One RTM_NEWROUTE message as a route, or null when it is not a main-table unicast route.
nlohmann::json route_of(const nlmsghdr* h) {
  const auto* rt = static_cast<const rtmsg*>(NLMSG_DATA(h));
  if (rt->rtm_family != AF_INET || rt->rtm_table != RT_TABLE_MAIN || rt->rtm_type != RTN_UNICAST)
    return nullptr;
  nlohmann::json r = {{"dst", "0.0.0.0/0"},
                      {"dev", nullptr},
                      {"initcwnd", nullptr},
                      {"initrwnd", nullptr},
                      {"mtu", nullptr}};
  int len = static_cast<int>(RTM_PAYLOAD(h));
  for (const rtattr* a = RTM_RTA(rt); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
    if (a->rta_type == RTA_DST && RTA_PAYLOAD(a) == 4) {
      std::array<char, INET_ADDRSTRLEN> text{};
      inet_ntop(AF_INET, RTA_DATA(a), text.data(), text.size());
      r["dst"] = std::string(text.data()) + "/" + std::to_string(rt->rtm_dst_len);
    } else if (a->rta_type == RTA_OIF && RTA_PAYLOAD(a) == sizeof(int)) {
      int index = 0;
      std::memcpy(&index, RTA_DATA(a), sizeof index);
      std::array<char, IF_NAMESIZE> name{};
      if (if_indextoname(static_cast<unsigned>(index), name.data()) != nullptr)
        r["dev"] = name.data();
    } else if (a->rta_type == RTA_METRICS) {
      add_metrics(r, a);
    }
  }
  return r;
}

}  // namespace

nlohmann::json read_ipv4_routes() {
  Fd s{socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)};
  if (s.fd < 0) return nullptr;
  // The kernel answers a dump at once; a reply that never comes must not hold up a tool.
  const timeval wait{1, 0};
  setsockopt(s.fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  struct {
    nlmsghdr h;
    rtmsg r;
  } req{};
  req.h.nlmsg_len = NLMSG_LENGTH(sizeof(rtmsg));
  req.h.nlmsg_type = RTM_GETROUTE;
  req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
  req.h.nlmsg_seq = 1;
  req.r.rtm_family = AF_INET;
  if (send(s.fd, &req, req.h.nlmsg_len, 0) < 0) return nullptr;
  nlohmann::json routes = nlohmann::json::array();
  alignas(nlmsghdr) std::array<char, 32768> buf{};
  for (;;) {
    const ssize_t n = recv(s.fd, buf.data(), buf.size(), 0);
    if (n <= 0) return nullptr;
    // NLMSG_OK's own comparisons mix signs: the same checks, unsigned.
    const auto got = static_cast<size_t>(n);
    for (size_t at = 0; at + sizeof(nlmsghdr) <= got;) {
      const auto* h = reinterpret_cast<const nlmsghdr*>(buf.data() + at);
      if (h->nlmsg_len < sizeof(nlmsghdr) || h->nlmsg_len > got - at) return nullptr;
      if (h->nlmsg_type == NLMSG_DONE) return routes;
      if (h->nlmsg_type == NLMSG_ERROR) return nullptr;
      if (h->nlmsg_type == RTM_NEWROUTE) {
        nlohmann::json r = route_of(h);
        if (!r.is_null()) routes.push_back(std::move(r));
      }
      at += NLMSG_ALIGN(h->nlmsg_len);
    }
  }
}

}  // namespace dlcnet
