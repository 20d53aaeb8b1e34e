// Calibrating the TSC against CLOCK_MONOTONIC, robust to a reader preempted between two reads.
//
// A pair (TSC, CLOCK_MONOTONIC) read while the thread loses its CPU between the two reads is
// off by the time it was away: milliseconds on an oversubscribed host or an emulated guest, as
// much as half of a 20 ms calibration window (the clock then runs 50 % fast or slow; seen in a
// QEMU guest). So each end of the window is the narrowest of several (TSC, CLOCK_MONOTONIC,
// TSC) brackets, the error those widths imply is bounded, and the window grows until that bound
// is small enough; a TSC that cannot be calibrated within the limit is not used.
#pragma once

#include <cstdint>
#include <functional>

namespace dlcnet {

// One bracketed reading: CLOCK_MONOTONIC at `ns`, the TSC's midpoint at `tick`, the bracket's
// width in ticks (how far apart the two TSC reads were).
struct TscPair {
  double tick = 0;
  int64_t ns = 0;
  uint64_t width = 0;
};

struct TscCalibration {
  bool usable = false;
  double ns_per_tick = 0;
  double base_tick = 0;  // a reading: the TSC at `base_ns` of CLOCK_MONOTONIC
  int64_t base_ns = 0;
  double error_ppm = 0;  // bound of the rate's error from the brackets' widths
  int64_t window_ns = 0;
};

struct TscReaders {
  std::function<uint64_t()> tsc;
  std::function<int64_t()> monotonic;
  std::function<void(int64_t ns)> sleep;
};

struct TscCalibrationLimits {
  int tries = 32;                // brackets read at each end; the narrowest is kept
  int64_t step_ns = 20'000'000;  // the window grows by this much at a time
  int64_t max_window_ns = 400'000'000;
  double target_ppm = 20;    // stop once the bound is this small
  double reject_ppm = 1000;  // not usable if the bound is still above this
};

// The narrowest of `tries` (TSC, CLOCK_MONOTONIC, TSC) brackets.
TscPair read_tsc_pair(const TscReaders& r, int tries);

TscCalibration calibrate_tsc(const TscReaders& r, const TscCalibrationLimits& limits = {});

}  // namespace dlcnet
