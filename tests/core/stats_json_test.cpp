#include "core/stats_json.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace dlcnet {
namespace {

TEST(StatsJson, TheNineKeysAndTheirValues) {
  const std::vector<double> v{1, 2, 3, 4};
  const LatencySummary s = summarize_latency(v);
  const nlohmann::json j = latency_summary_json(s);
  std::set<std::string> keys;
  for (const auto& [k, value] : j.items()) keys.insert(k);
  EXPECT_EQ(keys, std::set<std::string>(kLatencySummaryKeys.begin(), kLatencySummaryKeys.end()));
  EXPECT_EQ(j["count"], 4u);
  EXPECT_DOUBLE_EQ(j["min"].get<double>(), 1);
  EXPECT_DOUBLE_EQ(j["p50"].get<double>(), s.p50);
  EXPECT_DOUBLE_EQ(j["p90"].get<double>(), s.p90);
  EXPECT_DOUBLE_EQ(j["p99"].get<double>(), s.p99);
  EXPECT_DOUBLE_EQ(j["p99_9"].get<double>(), s.p999);
  EXPECT_DOUBLE_EQ(j["max"].get<double>(), 4);
  EXPECT_DOUBLE_EQ(j["mean"].get<double>(), 2.5);
  EXPECT_DOUBLE_EQ(j["stdev"].get<double>(), s.stdev);
}

TEST(StatsJson, EmptySummaryKeepsItsShape) {
  const nlohmann::json j = latency_summary_json(summarize_latency({}));
  EXPECT_EQ(j.size(), kLatencySummaryKeys.size());
  EXPECT_EQ(j["count"], 0u);
}

}  // namespace
}  // namespace dlcnet
