#include "core/clock.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace dlcnet {
namespace {

TEST(Clock, AgreesWithMonotonicOverASleep) {
  const int64_t a0 = now_ns(), m0 = monotonic_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const int64_t a1 = now_ns(), m1 = monotonic_ns();
  const double ratio = static_cast<double>(a1 - a0) / static_cast<double>(m1 - m0);
  EXPECT_NEAR(ratio, 1.0, 0.01) << clock_description();
  // Same epoch as CLOCK_MONOTONIC (within the calibration's error), so values mix safely.
  EXPECT_NEAR(static_cast<double>(a1 - m1), 0.0, 5e6) << clock_description();
}

TEST(Clock, NeverGoesBackwards) {
  int64_t prev = now_ns();
  for (int i = 0; i < 100000; ++i) {
    int64_t t = now_ns();
    ASSERT_GE(t, prev);
    prev = t;
  }
}

}  // namespace
}  // namespace dlcnet
