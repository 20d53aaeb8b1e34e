// The data every collective moves: float32 small integers whose sums are exact, so a result is
// checked for equality, element by element, with no tolerance.
//   input of rank r, element g, iteration t:  (g + 3r + 5t) mod 32
// A sum over N ranks stays below 32 N, exact in float32 for N < 2^19.
#pragma once

#include <array>
#include <cstdint>

namespace dlcnet::ring {

inline float input_value(int rank, uint64_t g, uint32_t t) noexcept {
  return static_cast<float>((g + 3 * static_cast<uint64_t>(rank) + 5 * uint64_t{t}) & 31);
}

// The all-reduce of element g in iteration t is sums[(g + 5t) mod 32].
std::array<float, 32> reduced_table(int ranks) noexcept;
inline float reduced_value(const std::array<float, 32>& sums, uint64_t g, uint32_t t) noexcept {
  return sums[(g + 5 * uint64_t{t}) & 31];
}

// out[i] = a[i] + b[i] for i < n.
void add(float* out, const float* a, const float* b, uint64_t n) noexcept;
// acc[i] += a[i] for i < n: a sum into the buffer a message was received in.
void accumulate(float* acc, const float* a, uint64_t n) noexcept;

}  // namespace dlcnet::ring
