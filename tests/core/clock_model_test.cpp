#include "core/clock_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/clock.hpp"
#include "core/clock_sync.hpp"

namespace dlcnet {
namespace {

TEST(ClockOffset, MinimumRoundTripSampleWins) {
  // Rank r's clock is 1000 ns ahead; one-way delays vary, the 40 ns round trip is the best.
  const std::vector<ClockSample> s = {
      {0, 1000 + 300, 500},      // rtt 500
      {1000, 2000 + 20, 1040},   // rtt 40, symmetric: offset exactly 1000
      {2000, 3000 + 900, 3000},  // rtt 1000
  };
  const OffsetEstimate e = estimate_offset(s);
  EXPECT_EQ(e.samples, 3u);
  EXPECT_EQ(e.rtt_ns, 40);
  EXPECT_DOUBLE_EQ(e.offset_ns, 1000.0);
  EXPECT_DOUBLE_EQ(e.uncertainty_ns, 20.0);
  EXPECT_DOUBLE_EQ(e.at_ns, 1020.0);
}

TEST(ClockOffset, TheBoundHoldsForAsymmetricPaths) {
  // True offset -5000; out 10 ns, back 90 ns: the estimate is off by 40 = within rtt/2 = 50.
  const std::vector<ClockSample> s = {{100, 100 + 10 - 5000, 200}};
  const OffsetEstimate e = estimate_offset(s);
  EXPECT_LE(std::abs(e.offset_ns - (-5000.0)), e.uncertainty_ns);
}

TEST(ClockOffset, IgnoresBackwardsSamples) {
  const std::vector<ClockSample> s = {{100, 5, 50}};
  EXPECT_EQ(estimate_offset(s).samples, 0u);
  EXPECT_EQ(estimate_offset({}).samples, 0u);
}

TEST(ClockModel, DriftBetweenTwoEstimates) {
  OffsetEstimate a, b;
  a.samples = b.samples = 8;
  a.offset_ns = 1000;
  a.at_ns = 0;
  a.uncertainty_ns = 10;
  b.offset_ns = 1000 + 50;  // 50 ns over 1 ms: 50 ppm
  b.at_ns = 1e6;
  b.uncertainty_ns = 30;
  const ClockModel m = fit_clock(a, b);
  EXPECT_NEAR(m.drift, 50e-6, 1e-12);
  EXPECT_DOUBLE_EQ(m.uncertainty_ns, 30.0);
  // A local time maps back: rank 0 time t = 0.5 ms shows as t + 1025 on rank r.
  const double t = 5e5;
  EXPECT_NEAR(m.to_reference(static_cast<int64_t>(t + 1025)), t, 1e-6);
}

TEST(ClockModel, EstimatesTooCloseGiveNoDrift) {
  OffsetEstimate a, b;
  a.samples = b.samples = 1;
  a.uncertainty_ns = b.uncertainty_ns = 100;
  b.at_ns = 500;  // closer than the errors allow
  b.offset_ns = 80;
  EXPECT_EQ(fit_clock(a, b).drift, 0.0);
  // Only one estimate: no drift, its own bound.
  OffsetEstimate none;
  const ClockModel m = fit_clock(a, none);
  EXPECT_EQ(m.drift, 0.0);
  EXPECT_EQ(m.uncertainty_ns, 100.0);
}

TEST(ClockModel, SameClockIsIdentity) {
  const ClockModel m = same_clock_model();
  EXPECT_TRUE(m.same_clock);
  EXPECT_DOUBLE_EQ(m.to_reference(123456789), 123456789.0);
}

TEST(ClockSync, LinkToMonotonicIsTight) {
  const OffsetEstimate l = link_to_monotonic(16);
  EXPECT_EQ(l.samples, 16u);
  EXPECT_GE(l.uncertainty_ns, 1.0);
  EXPECT_LT(l.uncertainty_ns, 1e6);  // a microsecond-scale read window, not a time slice
  // Applying it maps now_ns() onto CLOCK_MONOTONIC.
  const int64_t a = monotonic_ns();
  const double mapped = static_cast<double>(now_ns()) - l.offset_ns;
  const int64_t b = monotonic_ns();
  EXPECT_GE(mapped, static_cast<double>(a) - l.uncertainty_ns - 1000);
  EXPECT_LE(mapped, static_cast<double>(b) + l.uncertainty_ns + 1000);
}

TEST(ClockModel, ToLocalInvertsToReference) {
  ClockModel m;
  m.offset_ns = 5000;
  m.drift = 2e-5;
  m.at_ns = 1e9;
  for (double ref : {0.0, 1e9, 3.7e9}) {
    EXPECT_NEAR(m.to_reference(std::llround(m.to_local(ref))), ref, 1.0);
  }
  // Without drift it is the offset alone.
  const ClockModel one = model_from(OffsetEstimate{-250, 30, 60, 1e6, 8});
  EXPECT_DOUBLE_EQ(one.to_local(2e6), 2e6 - 250);
  EXPECT_DOUBLE_EQ(one.uncertainty_ns, 30);
  EXPECT_EQ(one.drift, 0);
}

TEST(ClockModel, BeforeTheRunSameKernelRanksGoThroughTheKernel) {
  const std::vector<HostIdentity> hosts = {{"a", "boot-1"}, {"a", "boot-1"}, {"b", "boot-2"}};
  ClockRound before;
  before.pingpong = {{0, 0, 0, 0, 8}, {900, 50, 100, 10, 8}, {-4000, 70, 140, 10, 8}};
  before.kernel = {{100, 2, 4, 10, 8}, {300, 3, 6, 10, 8}, {0, 1, 2, 10, 8}};
  EXPECT_TRUE(model_before(hosts, before, 0).same_clock);
  const ClockModel m1 = model_before(hosts, before, 1);
  EXPECT_TRUE(m1.same_clock);
  EXPECT_DOUBLE_EQ(m1.offset_ns, 200);  // 300 - 100, not the ping-pong's 900
  EXPECT_DOUBLE_EQ(m1.uncertainty_ns, 5);
  const ClockModel m2 = model_before(hosts, before, 2);
  EXPECT_FALSE(m2.same_clock);
  EXPECT_DOUBLE_EQ(m2.offset_ns, -4000);
  EXPECT_DOUBLE_EQ(m2.uncertainty_ns, 70);
}

TEST(ClockSync, OneRankPerKernelIsPinged) {
  const std::vector<HostIdentity> hosts = {{"a", "k0"}, {"b", "k1"}, {"a", "k0"},
                                           {"b", "k1"}, {"c", ""},   {"b", "k1"}};
  EXPECT_EQ(clock_paths(&hosts, 6), (std::vector<int>{0, 1, 0, 1, 4, 1}));
  EXPECT_EQ(clock_paths(nullptr, 3), (std::vector<int>{0, 1, 2}));  // no identities: all
}

TEST(ClockSync, RanksBehindALeaderAddTheirKernelLinks) {
  ClockRound round;
  round.via = {0, 1, 1};
  round.pingpong = {{0, 0, 0, 0, 8}, {-5000, 40, 80, 1000, 8}, {}};
  round.kernel = {{10, 1, 2, 0, 8}, {700, 2, 4, 0, 8}, {900, 3, 6, 0, 8}};
  compose_via_leaders(round);
  EXPECT_DOUBLE_EQ(round.pingpong[2].offset_ns, -5000 + 900 - 700);
  EXPECT_DOUBLE_EQ(round.pingpong[2].uncertainty_ns, 40 + 3 + 2);
  EXPECT_EQ(round.pingpong[2].samples, 8u);
  EXPECT_DOUBLE_EQ(round.pingpong[1].offset_ns, -5000);  // the leader keeps its own
}

}  // namespace
}  // namespace dlcnet
