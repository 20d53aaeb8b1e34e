// The one clock every measurement uses.
#pragma once

#include <cstdint>
#include <ctime>

namespace dlcnet {

// Nanoseconds on CLOCK_MONOTONIC (vDSO, ~20 ns a call). Cross-host comparisons go through the
// offset estimate of the bootstrap, never through raw values.
inline int64_t now_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

inline double ns_to_s(int64_t ns) noexcept {
  return static_cast<double>(ns) * 1e-9;
}

}  // namespace dlcnet
