#include "replay/replay_fct.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "apps/dlc_replay/run.hpp"
#include "core/error.hpp"
#include "core/wire.hpp"

namespace dlcnet::replay {
namespace {

TEST(Fct, HpccNodeAddresses) {
  EXPECT_EQ(hpcc_node_ip(0), 0x0b000001u);
  EXPECT_EQ(hpcc_node_ip(1), 0x0b000101u);
  EXPECT_EQ(hpcc_node_ip(255), 0x0b00ff01u);
  EXPECT_EQ(hpcc_node_ip(256), 0x0b010001u);
}

TEST(Fct, LineLayout) {
  EXPECT_EQ(fct_line(0x0b000001, 0x0b000201, 10000, 100, 4096, 2000.4, 15000.6, 12000),
            "0b000001 0b000201 10000 100 4096 2000 15001 12000");
  // Negative values (clock error above the latency) are written as 0.
  EXPECT_EQ(fct_line(1, 2, 3, 4, 5, -1, -2, -3), "00000001 00000002 3 4 5 0 0 0");
}

std::vector<Flow> flows() {
  std::vector<Flow> f(4);
  f[0] = {0, 2, 1, 0, 1000, 5000, 10000, 0};
  f[1] = {0, 2, 2, 0, 1000000, 1000, 110000, 0};
  f[2] = {2, 0, 1, 1, 100, 3000, 8000, 0};
  f[3] = {0, 2, 3, 0, 100, 7000, 9000, 0};
  return f;
}

TEST(Fct, OrderedByStartWithPortsPerPair) {
  std::ostringstream out;
  FctOptions o;
  o.origin_ns = 1000;
  write_fct(out, flows(), o);
  EXPECT_EQ(out.str(),
            // Pair 0->2: base 9000 (fastest), rate from the 1 MB flow: 1e6 B / 101000 ns.
            "0b000001 0b000201 10000 100 1000000 0 110000 110000\n"
            "0b000201 0b000001 10000 100 100 2000 8000 8000\n"
            "0b000001 0b000201 10001 100 1000 4000 10000 9101\n"
            "0b000001 0b000201 10002 100 100 6000 9000 9010\n");
}

TEST(Fct, GivenLinkRate) {
  std::ostringstream out;
  FctOptions o;
  o.link_bps = 8e9;  // 1 byte per ns
  auto f = flows();
  f.resize(1);
  write_fct(out, f, o);
  EXPECT_EQ(out.str(), "0b000001 0b000201 10000 100 1000 5000 10000 11000\n");
}

TEST(ReplayResults, ReportRoundTrip) {
  RankReport r;
  r.rank = 2;
  r.node = 5;
  r.entries = 10;
  r.sends = 4;
  r.receives = 5;
  r.unreplayable = 1;
  r.wrong = 0;
  r.start_ns = 1.5;
  r.end_ns = 99.25;
  r.sched_error_s = {1e-6, 2e-6};
  r.order_hold_s = {3e-3};
  r.event_ns = {1, -1, 3};
  r.flows = flows();
  const RankReport d = decode_report(encode_report(r), 2);
  EXPECT_EQ(d.rank, 2);
  EXPECT_EQ(d.node, 5);
  EXPECT_EQ(d.sends, 4u);
  EXPECT_EQ(d.unreplayable, 1u);
  EXPECT_EQ(d.end_ns, 99.25);
  EXPECT_EQ(d.sched_error_s, r.sched_error_s);
  EXPECT_EQ(d.order_hold_s, r.order_hold_s);
  EXPECT_EQ(d.event_ns, r.event_ns);
  ASSERT_EQ(d.flows.size(), 4u);
  EXPECT_EQ(d.flows[1].bytes, 1000000u);
  EXPECT_EQ(d.flows[2].src, 2);
  EXPECT_EQ(d.flows[2].key, 1);
  Bytes cut = encode_report(r);
  cut.resize(cut.size() - 3);
  EXPECT_THROW(decode_report(cut, 2), Error);
}

TEST(RankPath, InsertsTheRank) {
  EXPECT_EQ(rank_path("out/rec.csv", 2, 3), "out/rec.rank2.csv");
  EXPECT_EQ(rank_path("rec", 0, 3), "rec.rank0");
  EXPECT_EQ(rank_path("a.b/rec", 1, 3), "a.b/rec.rank1");
  EXPECT_EQ(rank_path("rec-%r.csv", 4, 8), "rec-4.csv");
  EXPECT_EQ(rank_path("rec.csv", 0, 1), "rec.csv");
  EXPECT_EQ(rank_path(".hidden", 1, 2), ".hidden.rank1");
}

}  // namespace
}  // namespace dlcnet::replay
