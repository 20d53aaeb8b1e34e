#include "core/stats.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace dlcnet {
namespace {

TEST(Stats, NearestRankPercentilesOfOneToHundred) {
  std::vector<double> v(100);
  std::iota(v.begin(), v.end(), 1.0);
  std::reverse(v.begin(), v.end());  // order must not matter
  LatencySummary s = summarize_latency(v);
  EXPECT_EQ(s.count, 100u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.p50, 50);
  EXPECT_DOUBLE_EQ(s.p90, 90);
  EXPECT_DOUBLE_EQ(s.p99, 99);
  EXPECT_DOUBLE_EQ(s.p999, 100);
  EXPECT_DOUBLE_EQ(s.max, 100);  // the largest samples are kept, unlike perftest
  EXPECT_DOUBLE_EQ(s.mean, 50.5);
  EXPECT_NEAR(s.stdev, 29.011491975882016, 1e-12);  // sample stdev of 1..100
}

TEST(Stats, SubMicrosecondSamplesKeepTheirFraction) {
  // Integer accumulation (perftest's stdev) would turn these into zeros.
  std::vector<double> v{1.2e-6, 1.4e-6, 1.6e-6};
  LatencySummary s = summarize_latency(v);
  EXPECT_NEAR(s.mean, 1.4e-6, 1e-18);
  EXPECT_NEAR(s.stdev, 0.2e-6, 1e-15);
}

TEST(Stats, SingleSampleAndEmpty) {
  std::vector<double> one{3.0};
  LatencySummary s = summarize_latency(one);
  EXPECT_EQ(s.count, 1u);
  EXPECT_DOUBLE_EQ(s.p999, 3.0);
  EXPECT_DOUBLE_EQ(s.stdev, 0.0);
  EXPECT_EQ(summarize_latency({}).count, 0u);
}

TEST(Stats, PercentileOfTenSamples) {
  std::vector<double> v{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 0.5), 5);
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 0.99), 10);
  EXPECT_DOUBLE_EQ(percentile_sorted(v, 0.0), 1);
}

TEST(Stats, BandwidthAverageAndPeak) {
  // 4 messages of 1000 bytes: posted at 0,0,0,0; completed at 1,2,3,10 us.
  std::vector<int64_t> post{0, 0, 0, 0};
  std::vector<int64_t> done{1000, 2000, 3000, 10000};
  BandwidthSummary b = summarize_bandwidth(post, done, 1000, 2);
  EXPECT_EQ(b.bytes, 4000u);
  EXPECT_DOUBLE_EQ(b.seconds, 10e-6);
  EXPECT_DOUBLE_EQ(b.average_bps, 4000 / 10e-6);
  EXPECT_DOUBLE_EQ(b.message_rate, 4 / 10e-6);
  // Best window of 2: messages 0-1 span 0..2 us -> 2000 B / 2 us.
  EXPECT_DOUBLE_EQ(b.peak_bps, 2000 / 2e-6);
}

TEST(Stats, BandwidthSteadyIsTheSecondHalfsRate) {
  // A sender whose buffers take 4 messages at once, then completes one per 10 us as the path
  // drains: the average counts the buffered start, the steady rate is the path's.
  std::vector<int64_t> post(12, 0), done;
  for (int i = 0; i < 4; ++i) done.push_back(1000);
  for (int i = 1; i <= 8; ++i) done.push_back(1000 + i * 10000);
  BandwidthSummary b = summarize_bandwidth(post, done, 1000, 2);
  EXPECT_DOUBLE_EQ(b.steady_bps, 1000 / 10e-6);
  EXPECT_DOUBLE_EQ(b.average_bps, 12000 / 81e-6);
  // Unsignaled messages complete with the one that retires them (blocks of 4 here): the
  // messages completed at the half's instant are not counted after it.
  std::vector<int64_t> blocks{10, 10, 10, 10, 20, 20, 20, 20, 30, 30, 30, 30};
  for (int64_t& t : blocks) t *= 1000;
  EXPECT_DOUBLE_EQ(summarize_bandwidth(post, blocks, 1000, 2).steady_bps, 4000 / 10e-6);
  // No span after the half: the average.
  std::vector<int64_t> one{5000};
  const BandwidthSummary single = summarize_bandwidth(std::vector<int64_t>{0}, one, 1000, 1);
  EXPECT_DOUBLE_EQ(single.steady_bps, single.average_bps);
}

TEST(Median, MiddleOrMeanOfTheTwoMiddleOnes) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0.0);
}

}  // namespace
}  // namespace dlcnet
