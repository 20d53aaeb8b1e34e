// Shared set-up of the model's tests: a calibration with round numbers and no packet headers,
// so hand-computed times are S/B plus latency, and a message builder.
#pragma once

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

// Times in units of S / B.
inline double sb(double n) {
  return n * kS / kRate;
}

}  // namespace dlcnet::model::testing
