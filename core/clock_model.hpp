// Offsets between the ranks' clocks, from ping-pongs with rank 0: pure arithmetic, no I/O.
// A ping leaves rank 0 at t0, rank r stamps it t_remote on arrival and answers, the answer is
// back at t1. With the one-way times unknown but positive, rank r's clock minus rank 0's lies
// in [t_remote - t1, t_remote - t0]: the midpoint is the estimate and half the round trip its
// bound. The sample with the smallest round trip gives the tightest bound.
#pragma once

#include <cstdint>
#include <span>

namespace dlcnet {

struct ClockSample {
  int64_t t0 = 0;        // rank 0: ping sent
  int64_t t_remote = 0;  // rank r: ping arrived
  int64_t t1 = 0;        // rank 0: answer arrived
};

struct OffsetEstimate {
  double offset_ns = 0;       // rank r's clock minus rank 0's
  double uncertainty_ns = 0;  // |error| <= this: half the smallest round trip
  int64_t rtt_ns = 0;
  double at_ns = 0;  // rank 0's time of the chosen sample (midpoint)
  uint32_t samples = 0;
};

// The minimum-round-trip sample. Samples with t1 < t0 are ignored; none left gives samples=0.
OffsetEstimate estimate_offset(std::span<const ClockSample> samples) noexcept;

// Rank r's clock mapped onto rank 0's: offset(t) = offset + drift * (t - at), t on rank 0's
// clock. Estimated before and after the run, drift is the slope between the two; the bound
// is the larger of the two bounds (the line between two points each within u of the truth
// stays within u when the drift is linear).
struct ClockModel {
  double offset_ns = 0;
  double drift = 0;  // dimensionless (ns per ns); 1e-6 = 1 ppm
  double at_ns = 0;
  double uncertainty_ns = 0;
  // Same kernel as rank 0 (boot id): the offset comes through CLOCK_MONOTONIC, which that
  // kernel shares, instead of ping-pongs.
  bool same_clock = false;

  // The local time `local_ns` of rank r on rank 0's clock.
  double to_reference(int64_t local_ns) const noexcept {
    // local = t + offset + drift * (t - at)  =>  t = (local - offset + drift * at) / (1 + drift)
    return (static_cast<double>(local_ns) - offset_ns + drift * at_ns) / (1.0 + drift);
  }
  // The inverse: rank 0's time `reference_ns` on rank r's clock (used to wait for an instant
  // rank 0 chose).
  double to_local(double reference_ns) const noexcept {
    return reference_ns + offset_ns + drift * (reference_ns - at_ns);
  }
};

ClockModel fit_clock(const OffsetEstimate& before, const OffsetEstimate& after) noexcept;
ClockModel same_clock_model() noexcept;
// A model from one estimate (no drift): what is known before the run, to act on rank 0's time.
ClockModel model_from(const OffsetEstimate& e) noexcept;

}  // namespace dlcnet
