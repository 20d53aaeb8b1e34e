#include "core/tsc_calibration.hpp"

namespace dlcnet {

TscPair read_tsc_pair(const TscReaders& r, int tries) {
  TscPair best;
  bool found = false;
  for (int k = 0; k < tries; ++k) {
    const uint64_t a = r.tsc();
    const int64_t m = r.monotonic();
    const uint64_t b = r.tsc();
    if (b < a) continue;
    const uint64_t width = b - a;
    if (found && width >= best.width) continue;
    found = true;
    best.width = width;
    best.tick = static_cast<double>(a) + static_cast<double>(width) / 2.0;
    best.ns = m;
  }
  return best;
}

TscCalibration calibrate_tsc(const TscReaders& r, const TscCalibrationLimits& limits) {
  TscCalibration c;
  const TscPair start = read_tsc_pair(r, limits.tries);
  for (int64_t waited = 0; waited < limits.max_window_ns;) {
    r.sleep(limits.step_ns);
    waited += limits.step_ns;
    const TscPair end = read_tsc_pair(r, limits.tries);
    const int64_t span_ns = end.ns - start.ns;
    const double span_ticks = end.tick - start.tick;
    if (span_ns <= 0 || span_ticks <= 0) return c;  // a clock that stood still or went back
    c.ns_per_tick = static_cast<double>(span_ns) / span_ticks;
    c.base_tick = end.tick;
    c.base_ns = end.ns;
    c.window_ns = span_ns;
    // Each end's CLOCK_MONOTONIC read lies somewhere in its bracket: at most half a width
    // from the midpoint taken, so the span in ticks is off by at most the half-widths' sum.
    const double err_ticks = static_cast<double>(start.width + end.width) / 2.0;
    c.error_ppm = err_ticks / span_ticks * 1e6;
    if (c.error_ppm <= limits.target_ppm) break;
  }
  c.usable = c.window_ns > 0 && c.error_ppm <= limits.reject_ppm;
  return c;
}

}  // namespace dlcnet
