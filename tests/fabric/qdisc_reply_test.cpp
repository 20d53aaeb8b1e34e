// Parsing RTM_NEWQDISC answers, on messages built here the way the kernel builds them.
#include "fabric/qdisc_reply.hpp"

#include <gtest/gtest.h>
#include <linux/gen_stats.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include <vector>

namespace dlcnet::fabric {
namespace {

// An nl_msg whose bytes the test hands to the parser.
class Message {
 public:
  explicit Message(int type) : m_(nlmsg_alloc_simple(type, 0)) {}
  ~Message() { nlmsg_free(m_); }
  Message(const Message&) = delete;
  Message& operator=(const Message&) = delete;
  nl_msg* get() { return m_; }
  std::vector<uint8_t> bytes() {
    const nlmsghdr* h = nlmsg_hdr(m_);
    const auto* p = reinterpret_cast<const uint8_t*>(h);
    return {p, p + h->nlmsg_len};
  }

 private:
  nl_msg* m_;
};

// A tbf root qdisc on ifindex 7 with TCA_STATS2 (basic, queue) and optionally TCA_STATS_PKT64.
std::vector<uint8_t> tbf_reply(bool pkt64) {
  Message m(RTM_NEWQDISC);
  tcmsg t{};
  t.tcm_ifindex = 7;
  t.tcm_handle = 0x80010000;
  t.tcm_parent = TC_H_ROOT;
  nlmsg_append(m.get(), &t, sizeof t, NLMSG_ALIGNTO);
  nla_put_string(m.get(), TCA_KIND, "tbf");
  nlattr* stats = nla_nest_start(m.get(), TCA_STATS2);
  gnet_stats_basic basic{};
  basic.bytes = 5'000'000'000ull;
  basic.packets = 3'000'000;
  nla_put(m.get(), TCA_STATS_BASIC, sizeof basic, &basic);
  if (pkt64) {
    const uint64_t packets = 6'000'000'000ull;
    nla_put(m.get(), TCA_STATS_PKT64, sizeof packets, &packets);
  }
  gnet_stats_queue q{.qlen = 12, .backlog = 18000, .drops = 70, .requeues = 0, .overlimits = 4321};
  nla_put(m.get(), TCA_STATS_QUEUE, sizeof q, &q);
  nla_nest_end(m.get(), stats);
  return m.bytes();
}

TEST(QdiscReply, Stats2OfATbf) {
  const QdiscReply r = parse_qdisc_reply(tbf_reply(false));
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.error, 0);
  EXPECT_EQ(r.ifindex, 7);
  EXPECT_EQ(r.handle, 0x80010000u);
  EXPECT_EQ(r.parent, TC_H_ROOT);
  EXPECT_EQ(r.kind, "tbf");
  EXPECT_EQ(r.counters.backlog_bytes, 18000u);
  EXPECT_EQ(r.counters.backlog_packets, 12u);
  EXPECT_EQ(r.counters.drops, 70u);
  EXPECT_EQ(r.counters.overlimits, 4321u);
  EXPECT_EQ(r.counters.sent_bytes, 5'000'000'000ull);
  EXPECT_EQ(r.counters.sent_packets, 3'000'000u);
  EXPECT_EQ(r.counters.t_ns, 0);
}

TEST(QdiscReply, Pkt64OverridesThe32BitPacketCount) {
  EXPECT_EQ(parse_qdisc_reply(tbf_reply(true)).counters.sent_packets, 6'000'000'000ull);
}

TEST(QdiscReply, OldTcaStatsWhenThereIsNoStats2) {
  Message m(RTM_NEWQDISC);
  tcmsg t{};
  t.tcm_ifindex = 3;
  nlmsg_append(m.get(), &t, sizeof t, NLMSG_ALIGNTO);
  nla_put_string(m.get(), TCA_KIND, "pfifo_fast");
  tc_stats s{};
  s.bytes = 999;
  s.packets = 9;
  s.drops = 2;
  s.overlimits = 1;
  s.qlen = 4;
  s.backlog = 6000;
  nla_put(m.get(), TCA_STATS, sizeof s, &s);
  const QdiscReply r = parse_qdisc_reply(m.bytes());
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.kind, "pfifo_fast");
  EXPECT_EQ(r.counters.sent_bytes, 999u);
  EXPECT_EQ(r.counters.sent_packets, 9u);
  EXPECT_EQ(r.counters.drops, 2u);
  EXPECT_EQ(r.counters.overlimits, 1u);
  EXPECT_EQ(r.counters.backlog_packets, 4u);
  EXPECT_EQ(r.counters.backlog_bytes, 6000u);
}

TEST(QdiscReply, KernelErrorIsReturnedAsPositiveErrno) {
  Message m(NLMSG_ERROR);
  nlmsgerr e{};
  e.error = -19;  // ENODEV
  nlmsg_append(m.get(), &e, sizeof e, NLMSG_ALIGNTO);
  const QdiscReply r = parse_qdisc_reply(m.bytes());
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.error, 19);
}

TEST(QdiscReply, TruncatedOrForeignBytesFindNothing) {
  auto bytes = tbf_reply(false);
  bytes.resize(10);
  EXPECT_FALSE(parse_qdisc_reply(bytes).found);
  EXPECT_FALSE(parse_qdisc_reply({}).found);
  Message link(RTM_NEWLINK);
  ifinfomsg i{};
  nlmsg_append(link.get(), &i, sizeof i, NLMSG_ALIGNTO);
  const QdiscReply r = parse_qdisc_reply(link.bytes());
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.error, 0);
}

}  // namespace
}  // namespace dlcnet::fabric
