// Shared set-up of the model's tests: a calibration with round numbers and no packet headers,
// so hand-computed times are S/B plus latency, a message builder and a time check.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/calibration.hpp"
#include "model/message.hpp"

namespace dlcnet::model::testing {

inline constexpr double kRate = 1e9;      // bytes/s
inline constexpr double kLatency = 1e-6;  // s
inline constexpr double kS = 1e6;         // bytes: S / B = 1 ms

inline Calibration plain_calibration() {
  Calibration c;
  c.link_rate_Bps = kRate;
  c.base_latency_s = kLatency;
  c.header_bytes = 0;
  return c;
}

inline Message msg(uint32_t src, uint32_t dst, double bytes, double start_s = 0) {
  Message m;
  m.src = src;
  m.dst = dst;
  m.bytes = static_cast<uint64_t>(bytes);
  m.start_s = start_s;
  return m;
}

// A predicted time, to the relative tolerance of the fluid arithmetic.
inline void expect_time(double got, double want) {
  EXPECT_NEAR(got, want, 1e-12 + 1e-9 * want);
}

// Times in units of S / B.
inline double sb(double n) {
  return n * kS / kRate;
}

}  // namespace dlcnet::model::testing
