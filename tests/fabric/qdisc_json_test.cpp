// The compact JSON of a qdisc series (column arrays) and of its summary.
#include "fabric/qdisc_json.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace dlcnet::fabric {
namespace {

TEST(QdiscJson, SeriesIsOneArrayPerColumn) {
  std::vector<QdiscSample> s(2);
  s[0] = {.t_ns = 1'500'000'000, .backlog_bytes = 3000, .backlog_packets = 2, .drops = 1};
  s[1] = {.t_ns = 1'500'100'000, .backlog_bytes = 0, .backlog_packets = 0, .drops = 4};
  s[1].overlimits = 9;
  s[1].sent_bytes = 123456;
  const nlohmann::json j = series_json(s);
  EXPECT_EQ(j["t_s"], nlohmann::json({1.5, 1.5001}));
  EXPECT_EQ(j["backlog_bytes"], nlohmann::json({3000, 0}));
  EXPECT_EQ(j["backlog_packets"], nlohmann::json({2, 0}));
  EXPECT_EQ(j["drops"], nlohmann::json({1, 4}));
  EXPECT_EQ(j["overlimits"], nlohmann::json({0, 9}));
  EXPECT_EQ(j["sent_bytes"], nlohmann::json({0, 123456}));
  EXPECT_EQ(series_json({})["t_s"], nlohmann::json::array());
}

TEST(QdiscJson, SummaryInSeconds) {
  QdiscSummary r;
  r.samples = 3;
  r.achieved_rate_hz = 12000;
  r.max_gap_ns = 250'000;
  r.peak_backlog_bytes = 65000;
  r.peak_t_ns = 2'000'000'000;
  r.drops = 7;
  const nlohmann::json j = summary_json(r);
  EXPECT_EQ(j["samples"], 3);
  EXPECT_EQ(j["achieved_rate_hz"], 12000.0);
  EXPECT_DOUBLE_EQ(j["max_gap_s"].get<double>(), 0.00025);
  EXPECT_EQ(j["peak_backlog_bytes"], 65000);
  EXPECT_DOUBLE_EQ(j["peak_t_s"].get<double>(), 2.0);
  EXPECT_EQ(j["drops"], 7);
  EXPECT_TRUE(j.contains("overlimits"));
}

}  // namespace
}  // namespace dlcnet::fabric
