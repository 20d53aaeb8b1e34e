// The measurement against itself: the same message in the next group of the same shape, by
// hand-computed cases.
#include "compare/repeatability.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace dlcnet::compare {
namespace {

Matched msg(uint32_t src, uint32_t dst, uint64_t bytes, double start_us, double fct_us,
            int32_t group) {
  Matched m;
  m.src = src;
  m.dst = dst;
  m.bytes = bytes;
  m.start_ns = start_us * 1e3;
  m.measured_ns = fct_us * 1e3;
  m.group = group;
  return m;
}

TEST(Repeatability, SameMessageInTheNextGroupOfItsShape) {
  // Rounds 0 and 2: two senders, two messages each; round 1 another shape (one sender).
  // 1->0 first: 100 then 110 (+10 %); 1->0 second: 200 then 150 (25 %); 2->0: 100 then 100.
  const std::vector<Matched> m = {
      msg(1, 0, 64, 0, 100, 0),    msg(1, 0, 64, 1, 200, 0),    msg(2, 0, 64, 0, 100, 0),
      msg(1, 0, 64, 500, 999, 1),  msg(2, 0, 64, 1000, 100, 2), msg(1, 0, 64, 1001, 150, 2),
      msg(1, 0, 64, 1000, 110, 2), msg(3, 0, 64, 0, 5, -1),
  };
  const Repeatability r = measured_repeatability(m);
  EXPECT_EQ(r.group_pairs, 1u);
  ASSERT_EQ(r.messages, 3u);
  EXPECT_NEAR(r.abs_change.max, 0.25, 1e-9);
  EXPECT_NEAR(r.abs_change.min, 0.0, 1e-9);
  EXPECT_NEAR(r.abs_change.mean, (0.10 + 0.25 + 0.0) / 3, 1e-9);
}

TEST(Repeatability, EachGroupAgainstThePreviousOfItsShapeOnly) {
  // Three rounds of one message: 100, 200, 100: +100 % then 50 %, not round 0 against round 2.
  const std::vector<Matched> m = {msg(1, 0, 8, 0, 100, 0), msg(1, 0, 8, 0, 200, 1),
                                  msg(1, 0, 8, 0, 100, 2)};
  const Repeatability r = measured_repeatability(m);
  EXPECT_EQ(r.group_pairs, 2u);
  ASSERT_EQ(r.messages, 2u);
  EXPECT_NEAR(r.abs_change.max, 1.0, 1e-9);
  EXPECT_NEAR(r.abs_change.min, 0.5, 1e-9);
}

TEST(Repeatability, NothingWithoutRepeatedShapes) {
  // Another size is another shape; messages outside any group are left out.
  const std::vector<Matched> m = {msg(1, 0, 8, 0, 100, 0), msg(1, 0, 16, 0, 200, 1),
                                  msg(1, 0, 8, 0, 100, -1)};
  const Repeatability r = measured_repeatability(m);
  EXPECT_EQ(r.group_pairs, 0u);
  EXPECT_EQ(r.messages, 0u);
}

}  // namespace
}  // namespace dlcnet::compare
