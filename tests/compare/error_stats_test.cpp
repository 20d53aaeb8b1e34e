// dlc-compare's statistics on cases computed by hand: signed and absolute relative errors, MAPE,
// the Kolmogorov-Smirnov distance, the worst messages.
#include "compare/error_stats.hpp"

#include <gtest/gtest.h>

namespace dlcnet::compare {
namespace {

Matched pair(double measured, double predicted, uint32_t sport = 0) {
  Matched m;
  m.sport = sport;
  m.measured_ns = measured;
  m.predicted_ns = predicted;
  return m;
}

TEST(KsDistance, HandComputed) {
  EXPECT_DOUBLE_EQ(ks_distance({1, 2, 3}, {1, 2, 3}), 0.0);
  EXPECT_DOUBLE_EQ(ks_distance({1, 2}, {3, 4}), 1.0);
  // a = {1, 2, 3, 4}, b = {3, 4, 5, 6}: at x = 2, F_a = 0.5, F_b = 0; at 3: 0.75 vs 0.25 ...
  EXPECT_DOUBLE_EQ(ks_distance({4, 3, 2, 1}, {3, 4, 5, 6}), 0.5);
  // Ties: a = {1, 1, 2}, b = {1, 2, 2}: at 1, 2/3 vs 1/3.
  EXPECT_NEAR(ks_distance({1, 1, 2}, {1, 2, 2}), 1.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(ks_distance({}, {1}), 0.0);
}

TEST(ErrorSummary, HandComputed) {
  // Errors: +10 %, -20 %, +50 %, 0 %.
  const std::vector<Matched> m{pair(100, 110, 1), pair(100, 80, 2), pair(200, 300, 3),
                               pair(50, 50, 4)};
  const ErrorSummary s = summarize_errors(m, 2);
  EXPECT_EQ(s.count, 4u);
  EXPECT_NEAR(s.mape_pct, (10 + 20 + 50 + 0) / 4.0, 1e-9);
  EXPECT_NEAR(s.signed_error.min, -0.2, 1e-12);
  EXPECT_NEAR(s.signed_error.max, 0.5, 1e-12);
  EXPECT_NEAR(s.signed_error.p50, 0.0, 1e-12);  // nearest rank: the 2nd of -0.2, 0, 0.1, 0.5
  EXPECT_NEAR(s.abs_error.max, 0.5, 1e-12);
  ASSERT_EQ(s.worst.size(), 2u);
  EXPECT_EQ(s.worst[0].sport, 3u);
  EXPECT_EQ(s.worst[1].sport, 2u);
  EXPECT_NEAR(s.measured_s.max, 200e-9, 1e-18);
  EXPECT_NEAR(s.predicted_s.max, 300e-9, 1e-18);
}

}  // namespace
}  // namespace dlcnet::compare
