#include "patterns/ring/ring_data.hpp"

namespace dlcnet::ring {

std::array<float, 32> reduced_table(int ranks) noexcept {
  std::array<float, 32> sums{};
  for (uint64_t x = 0; x < 32; ++x) {
    uint64_t s = 0;
    for (int r = 0; r < ranks; ++r) s += (x + 3 * static_cast<uint64_t>(r)) & 31;
    sums[x] = static_cast<float>(s);
  }
  return sums;
}

// Blocks of 16 elements, a loop of a fixed count that the compiler unrolls and vectorises at
// -O2 (its cost model there leaves a loop of unknown count scalar: a 1 MiB segment's sum then
// took longer than its copy between the ranks), then the rest one by one. AVX2 where the CPU
// has it, chosen when the program loads.
__attribute__((target_clones("avx2", "default"))) void add(float* __restrict out,
                                                           const float* __restrict a,
                                                           const float* __restrict b,
                                                           uint64_t n) noexcept {
  constexpr uint64_t kBlock = 16;
  uint64_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    for (uint64_t k = 0; k < kBlock; ++k) out[i + k] = a[i + k] + b[i + k];
  }
  for (; i < n; ++i) out[i] = a[i] + b[i];
}

__attribute__((target_clones("avx2", "default"))) void accumulate(float* __restrict acc,
                                                                  const float* __restrict a,
                                                                  uint64_t n) noexcept {
  constexpr uint64_t kBlock = 16;
  uint64_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    for (uint64_t k = 0; k < kBlock; ++k) acc[i + k] += a[i + k];
  }
  for (; i < n; ++i) acc[i] += a[i];
}

}  // namespace dlcnet::ring
