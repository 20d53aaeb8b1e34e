#include "fabric/qdisc_reply.hpp"

#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace dlcnet::fabric {
namespace {

// Copies an attribute's payload into a kernel struct: shorter payloads (older kernels) leave
// the rest zero, longer ones (newer kernels) are cut.
template <typename T>
T payload(const nlattr* a) {
  T out{};
  std::memcpy(&out, nla_data(a), std::min<size_t>(sizeof out, static_cast<size_t>(nla_len(a))));
  return out;
}

void read_stats2(nlattr* stats2, QdiscSample& c) {
  nlattr* tb[TCA_STATS_MAX + 1] = {};
  if (nla_parse_nested(tb, TCA_STATS_MAX, stats2, nullptr) < 0) return;
  if (tb[TCA_STATS_BASIC]) {
    const auto b = payload<gnet_stats_basic>(tb[TCA_STATS_BASIC]);
    c.sent_bytes = b.bytes;
    c.sent_packets = b.packets;
  }
  if (tb[TCA_STATS_PKT64]) c.sent_packets = payload<uint64_t>(tb[TCA_STATS_PKT64]);
  if (tb[TCA_STATS_QUEUE]) {
    const auto q = payload<gnet_stats_queue>(tb[TCA_STATS_QUEUE]);
    c.backlog_bytes = q.backlog;
    c.backlog_packets = q.qlen;
    c.drops = q.drops;
    c.overlimits = q.overlimits;
  }
}

void read_stats(const nlattr* stats, QdiscSample& c) {
  const auto s = payload<tc_stats>(stats);
  c.sent_bytes = s.bytes;
  c.sent_packets = s.packets;
  c.backlog_bytes = s.backlog;
  c.backlog_packets = s.qlen;
  c.drops = s.drops;
  c.overlimits = s.overlimits;
}

QdiscReply read_qdisc(nlmsghdr* h) {
  QdiscReply r;
  nlattr* tb[TCA_MAX + 1] = {};
  if (nlmsg_parse(h, sizeof(tcmsg), tb, TCA_MAX, nullptr) < 0) return r;
  const auto* t = static_cast<const tcmsg*>(nlmsg_data(h));
  r.found = true;
  r.ifindex = t->tcm_ifindex;
  r.handle = t->tcm_handle;
  r.parent = t->tcm_parent;
  if (tb[TCA_KIND]) r.kind = nla_get_string(tb[TCA_KIND]);
  if (tb[TCA_STATS2]) {
    read_stats2(tb[TCA_STATS2], r.counters);
  } else if (tb[TCA_STATS]) {
    read_stats(tb[TCA_STATS], r.counters);
  }
  return r;
}

}  // namespace

QdiscReply parse_qdisc_reply(std::span<const uint8_t> bytes) {
  // libnl's parsers want writable, aligned headers: work on an aligned copy.
  std::vector<nlmsghdr> buf((bytes.size() + sizeof(nlmsghdr) - 1) / sizeof(nlmsghdr));
  if (!bytes.empty()) std::memcpy(buf.data(), bytes.data(), bytes.size());
  int remaining = static_cast<int>(bytes.size());
  for (nlmsghdr* h = buf.data(); nlmsg_ok(h, remaining); h = nlmsg_next(h, &remaining)) {
    if (h->nlmsg_type == NLMSG_ERROR) {
      if (h->nlmsg_len < NLMSG_LENGTH(sizeof(nlmsgerr))) return {};
      const auto* e = static_cast<const nlmsgerr*>(nlmsg_data(h));
      if (e->error != 0) {
        QdiscReply r;
        r.error = -e->error;
        return r;
      }
      continue;  // an acknowledgement
    }
    if (h->nlmsg_type == RTM_NEWQDISC) return read_qdisc(h);
  }
  return {};
}

}  // namespace dlcnet::fabric
