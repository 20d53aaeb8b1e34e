#include "replay/replay_results.hpp"

#include <gtest/gtest.h>

#include "tests/flows/sample_flows.hpp"

#include "core/error.hpp"
#include "core/wire.hpp"
#include "replay/replay_pattern.hpp"

namespace dlcnet::replay {
namespace {

using dlcnet::testing::sample_flows;

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
  r.compute_s = 0.25;
  r.comm_s = 0.5;
  r.overlap_s = 0.125;
  r.sched_error_s = {1e-6, 2e-6};
  r.order_hold_s = {3e-3};
  r.event_ns = {1, -1, 3};
  r.flows = sample_flows();
  const RankReport d = decode_report(encode_report(r), 2);
  EXPECT_EQ(d.rank, 2);
  EXPECT_EQ(d.node, 5);
  EXPECT_EQ(d.sends, 4u);
  EXPECT_EQ(d.unreplayable, 1u);
  EXPECT_EQ(d.end_ns, 99.25);
  EXPECT_EQ(d.compute_s, 0.25);
  EXPECT_EQ(d.comm_s, 0.5);
  EXPECT_EQ(d.overlap_s, 0.125);
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
