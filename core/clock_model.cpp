#include "core/clock_model.hpp"

#include <algorithm>

namespace dlcnet {

OffsetEstimate estimate_offset(std::span<const ClockSample> samples) noexcept {
  OffsetEstimate best;
  bool found = false;
  for (const ClockSample& s : samples) {
    const int64_t rtt = s.t1 - s.t0;
    if (rtt < 0) continue;
    ++best.samples;
    if (found && rtt >= best.rtt_ns) continue;
    found = true;
    best.rtt_ns = rtt;
    const double mid = static_cast<double>(s.t0) + static_cast<double>(rtt) / 2.0;
    best.at_ns = mid;
    best.offset_ns = static_cast<double>(s.t_remote) - mid;
    best.uncertainty_ns = static_cast<double>(rtt) / 2.0;
  }
  return best;
}

ClockModel fit_clock(const OffsetEstimate& before, const OffsetEstimate& after) noexcept {
  ClockModel m;
  if (before.samples == 0 && after.samples == 0) return m;
  const OffsetEstimate& first = before.samples != 0 ? before : after;
  m.offset_ns = first.offset_ns;
  m.at_ns = first.at_ns;
  m.uncertainty_ns = first.uncertainty_ns;
  if (before.samples != 0 && after.samples != 0) {
    const double span = after.at_ns - before.at_ns;
    // Two estimates too close in time say nothing about drift (their errors dominate).
    if (span > 4.0 * (before.uncertainty_ns + after.uncertainty_ns) && span > 0) {
      m.drift = (after.offset_ns - before.offset_ns) / span;
    }
    m.uncertainty_ns = std::max(before.uncertainty_ns, after.uncertainty_ns);
  }
  return m;
}

ClockModel model_from(const OffsetEstimate& e) noexcept {
  ClockModel m;
  m.offset_ns = e.offset_ns;
  m.at_ns = e.at_ns;
  m.uncertainty_ns = e.uncertainty_ns;
  return m;
}

ClockModel same_clock_model() noexcept {
  ClockModel m;
  m.same_clock = true;
  return m;
}

}  // namespace dlcnet
