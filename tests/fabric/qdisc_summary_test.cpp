// The summary of a qdisc series: peak, backlog at a time, drops between two times.
#include "fabric/qdisc_summary.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace dlcnet::fabric {
namespace {

QdiscSample at(int64_t t_ns, uint64_t backlog, uint64_t drops, uint64_t sent = 0) {
  QdiscSample s;
  s.t_ns = t_ns;
  s.backlog_bytes = backlog;
  s.backlog_packets = static_cast<uint32_t>(backlog / 1000);
  s.drops = drops;
  s.overlimits = drops * 10;
  s.sent_bytes = sent;
  s.sent_packets = sent / 1000;
  return s;
}

// 11 samples 100 us apart, a burst peaking at 30 kB at t = 1.0004 s with drops in it.
std::vector<QdiscSample> burst() {
  const int64_t t0 = 1'000'000'000;
  const uint64_t backlog[] = {0, 0, 10000, 20000, 30000, 30000, 20000, 5000, 0, 0, 0};
  const uint64_t drops[] = {7, 7, 7, 8, 10, 12, 12, 12, 12, 12, 12};
  std::vector<QdiscSample> s;
  for (int i = 0; i < 11; ++i) s.push_back(at(t0 + i * 100'000, backlog[i], drops[i], 1000u * i));
  return s;
}

TEST(QdiscSummary, PeakRateAndCounterIncreases) {
  const auto s = burst();
  const QdiscSummary r = summarize(s);
  EXPECT_EQ(r.samples, 11u);
  EXPECT_DOUBLE_EQ(r.duration_s, 0.001);
  EXPECT_NEAR(r.achieved_rate_hz, 10000, 1e-6);
  EXPECT_EQ(r.max_gap_ns, 100'000);
  EXPECT_EQ(r.peak_backlog_bytes, 30000u);
  EXPECT_EQ(r.peak_backlog_packets, 30u);
  EXPECT_EQ(r.peak_t_ns, 1'000'400'000);  // the first time it peaked
  EXPECT_EQ(r.drops, 5u);
  EXPECT_EQ(r.overlimits, 50u);
  EXPECT_EQ(r.sent_bytes, 10000u);
  EXPECT_EQ(r.sent_packets, 10u);
}

TEST(QdiscSummary, GapAndEmptySeries) {
  auto s = burst();
  s[6].t_ns += 50'000;  // a late sample: 150 us after the one before
  EXPECT_EQ(summarize(s).max_gap_ns, 150'000);
  const QdiscSummary empty = summarize({});
  EXPECT_EQ(empty.samples, 0u);
  EXPECT_EQ(empty.achieved_rate_hz, 0);
  const QdiscSummary one = summarize(std::vector<QdiscSample>{at(5, 100, 3)});
  EXPECT_EQ(one.achieved_rate_hz, 0);
  EXPECT_EQ(one.peak_backlog_bytes, 100u);
}

TEST(QdiscSummary, BacklogAtTakesTheLastSampleAtOrBefore) {
  const auto s = burst();
  EXPECT_FALSE(backlog_at(s, 999'999'999).has_value());
  EXPECT_EQ(backlog_at(s, 1'000'000'000), 0u);
  EXPECT_EQ(backlog_at(s, 1'000'300'000), 20000u);
  EXPECT_EQ(backlog_at(s, 1'000'399'999), 20000u);
  EXPECT_EQ(backlog_at(s, 1'000'400'000), 30000u);
  EXPECT_EQ(backlog_at(s, 5'000'000'000), 0u);
  EXPECT_EQ(sample_at(s, 1'000'650'000)->t_ns, 1'000'600'000);
}

TEST(QdiscSummary, DropsBetweenTwoTimes) {
  const auto s = burst();
  EXPECT_EQ(drops_between(s, 1'000'200'000, 1'000'500'000), 5u);
  EXPECT_EQ(drops_between(s, 1'000'300'000, 1'000'400'000), 2u);
  EXPECT_EQ(drops_between(s, 0, 1'000'350'000), 1u);  // before the series: from the first
  EXPECT_EQ(drops_between(s, 1'000'600'000, 9'000'000'000), 0u);
  EXPECT_EQ(drops_between(s, 1'000'500'000, 1'000'200'000), 0u);  // reversed
  EXPECT_EQ(drops_between({}, 0, 1), 0u);
}

TEST(QdiscSummary, ACounterThatGoesBackCountsNothing) {
  // The qdisc was replaced between two samples: its counters restarted from 0.
  const std::vector<QdiscSample> s{at(0, 0, 50), at(100, 0, 2)};
  EXPECT_EQ(summarize(s).drops, 0u);
  EXPECT_EQ(drops_between(s, 0, 100), 0u);
}

}  // namespace
}  // namespace dlcnet::fabric
