#include "flows/flow_report.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

namespace dlcnet {
namespace {

std::vector<ClockReport> three_clocks() {
  std::vector<ClockReport> c(3);
  c[0].host = {"a", "boot-1"};
  c[0].model = same_clock_model();
  c[1].host = {"a", "boot-1"};
  c[1].model.same_clock = true;
  c[1].model.uncertainty_ns = 30;
  c[2].host = {"b", "boot-2"};
  c[2].model.offset_ns = -2.5e6;
  c[2].model.uncertainty_ns = 4000;
  c[2].model.drift = 3e-6;
  c[2].before.rtt_ns = 8000;
  return c;
}

TEST(FlowReport, ClocksSayHowEachRankWasAligned) {
  const auto clocks = three_clocks();
  const nlohmann::json j = clocks_json(clocks);
  ASSERT_EQ(j.size(), 3u);
  EXPECT_EQ(j[0]["method"], "reference");
  EXPECT_EQ(j[1]["method"], "clock_monotonic");
  EXPECT_EQ(j[2]["method"], "ping_pong");
  EXPECT_DOUBLE_EQ(j[2]["offset_s"].get<double>(), -2.5e-3);
  EXPECT_DOUBLE_EQ(j[2]["uncertainty_s"].get<double>(), 4e-6);

  ReleaseReport rel;
  rel.mode = Release::instant;
  rel.lead_ns = 10e6;
  rel.skew_ns = 12'300;
  rel.skew_bound_ns = 4030;
  rel.latest_rank = 2;
  rel.ranks.resize(3);
  std::ostringstream out;
  print_clocks(out, clocks, rel);
  const std::string s = out.str();
  EXPECT_NE(s.find("# clock of rank 2 (b): offset to rank 0 -2.500 ms +/- 4.0 us"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("# clock: rank 1 run on rank 0's kernel"), std::string::npos) << s;
  EXPECT_NE(s.find("# release: at an instant +10.000 ms ahead on rank 0's clock; ranks "
                   "started within +12.3 us +/- 4.0 us of each other (latest: rank 2)"),
            std::string::npos)
      << s;
}

TEST(FlowReport, PairsAsJsonAndTable) {
  PairLatency p;
  p.src = 1;
  p.dst = 0;
  p.messages = 3;
  p.bytes = 3072;
  p.one_way_s = summarize_latency(std::vector<double>{1e-6, 2e-6, 4e-6});
  p.bound_s = 5e-8;
  const std::vector<PairLatency> pairs = {p};
  const nlohmann::json j = pairs_json(pairs);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["messages"], 3);
  EXPECT_EQ(j[0]["one_way_s"]["count"], 3);
  EXPECT_DOUBLE_EQ(j[0]["one_way_s"]["p50"].get<double>(), 2e-6);
  EXPECT_DOUBLE_EQ(j[0]["uncertainty_s"].get<double>(), 5e-8);
  std::ostringstream out;
  print_pairs(out, pairs);
  EXPECT_NE(out.str().find("one-way_p50"), std::string::npos);
  EXPECT_NE(out.str().find("4.0"), std::string::npos) << out.str();  // the max, in us
}

}  // namespace
}  // namespace dlcnet
