#include "core/tsc_calibration.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dlcnet {
namespace {

// A simulated machine: a TSC at 3 GHz and a CLOCK_MONOTONIC, both driven by one true time that
// advances with every read; `stall_at` reads from the start, the reader loses its CPU for
// `stall_ns` (between the TSC read and the CLOCK_MONOTONIC read of a bracket).
struct FakeMachine {
  double ghz = 3.0;
  int64_t t = 1'000'000'000;
  int64_t read_cost_ns = 20;
  int reads = 0;
  int stall_at = -1;
  int64_t stall_ns = 0;

  TscReaders readers() {
    TscReaders r;
    r.tsc = [this] {
      step();
      return static_cast<uint64_t>(static_cast<double>(t) * ghz);
    };
    r.monotonic = [this] {
      step();
      return t;
    };
    r.sleep = [this](int64_t ns) { t += ns; };
    return r;
  }
  void step() {
    t += read_cost_ns;
    if (reads++ == stall_at) t += stall_ns;
  }
};

TEST(TscCalibration, FindsTheRate) {
  FakeMachine m;
  const TscCalibration c = calibrate_tsc(m.readers());
  ASSERT_TRUE(c.usable);
  EXPECT_NEAR(c.ns_per_tick, 1.0 / 3.0, 1e-6);
  EXPECT_LE(c.error_ppm, 20.0);
  EXPECT_EQ(c.window_ns / 1'000'000, 20);  // narrow brackets: the first window is enough
}

// The failure seen in a QEMU guest: the first pair read (TSC, then CLOCK_MONOTONIC 8 ms later)
// made a 20 ms window look 40 % longer. The narrowest bracket leaves the stalled one out.
TEST(TscCalibration, AStallBetweenTwoReadsDoesNotSkewTheRate) {
  for (int at : {0, 1, 5, 96, 97}) {
    FakeMachine m;
    m.stall_at = at;
    m.stall_ns = 8'000'000;
    const TscCalibration c = calibrate_tsc(m.readers());
    ASSERT_TRUE(c.usable) << "stall at read " << at;
    EXPECT_NEAR(c.ns_per_tick * 3.0, 1.0, 20e-6) << "stall at read " << at;
  }
}

// Every bracket wide (a reader that is always slow): the window grows until the bound is
// met, or the TSC is refused.
TEST(TscCalibration, WideBracketsGrowTheWindowOrRefuse) {
  FakeMachine slow;
  slow.read_cost_ns = 2'000;  // brackets of 4 us: 200 ppm at 20 ms, 20 ppm at 200 ms
  const TscCalibration c = calibrate_tsc(slow.readers());
  ASSERT_TRUE(c.usable);
  EXPECT_GE(c.window_ns, 200'000'000);
  EXPECT_LE(c.error_ppm, 20.0);
  EXPECT_NEAR(c.ns_per_tick * 3.0, 1.0, 20e-6);

  FakeMachine hopeless;
  hopeless.read_cost_ns = 500'000;  // brackets of 1 ms: over 1000 ppm within a 100 ms window
  TscCalibrationLimits limits;
  limits.max_window_ns = 100'000'000;
  EXPECT_FALSE(calibrate_tsc(hopeless.readers(), limits).usable);
}

TEST(TscCalibration, AClockThatStandsStillIsRefused) {
  TscReaders r;
  r.tsc = [] { return uint64_t{42}; };
  r.monotonic = [] { return int64_t{7}; };
  r.sleep = [](int64_t) {};
  EXPECT_FALSE(calibrate_tsc(r).usable);
}

}  // namespace
}  // namespace dlcnet
