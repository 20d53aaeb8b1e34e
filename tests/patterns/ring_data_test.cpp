// The reduction's sums of dlc-bench ring (patterns/ring/ring_data.hpp).
#include "patterns/ring/ring_data.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace dlcnet::ring {
namespace {

// The reduction's sums (into a third buffer, and in place), vectorised in blocks: every element
// of every count and alignment (the blocks, the rest, both), and nothing beyond the count
// written.
TEST(RingData, AddSumsEveryElementAndNothingElse) {
  std::vector<float> a(100), b(100), out(100);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(1000 + 3 * i);
  }
  for (uint64_t off = 0; off < 4; ++off) {
    for (uint64_t n = 0; n + off <= 70; ++n) {
      std::fill(out.begin(), out.end(), -1.0f);
      add(out.data() + off, a.data() + off, b.data() + off, n);
      for (uint64_t i = 0; i < out.size(); ++i) {
        const float want = i >= off && i < off + n ? a[i] + b[i] : -1.0f;
        ASSERT_EQ(out[i], want) << "offset " << off << ", count " << n << ", element " << i;
      }
      std::vector<float> acc = b;
      accumulate(acc.data() + off, a.data() + off, n);
      for (uint64_t i = 0; i < acc.size(); ++i) {
        const float want = i >= off && i < off + n ? a[i] + b[i] : b[i];
        ASSERT_EQ(acc[i], want) << "accumulate: offset " << off << ", count " << n << ", element "
                                << i;
      }
    }
  }
}

}  // namespace
}  // namespace dlcnet::ring
