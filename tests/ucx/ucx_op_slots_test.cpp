// OpSlots and CompletionRing: the transport's preallocated bookkeeping (ucx/ucx_op_slots.hpp).
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "ucx/ucx_op_slots.hpp"

namespace dlcnet::ucx {
namespace {

TEST(OpSlots, CountsWhatIsInFlightAndReusesGivenSlots) {
  OpSlots slots(nullptr, 4);
  EXPECT_EQ(slots.in_use(), 0u);
  std::vector<OpSlot*> taken;
  for (int i = 0; i < 4; ++i) taken.push_back(&slots.take());
  EXPECT_EQ(slots.in_use(), 4u);
  EXPECT_EQ(std::set<OpSlot*>(taken.begin(), taken.end()).size(), 4u);  // all distinct
  for (OpSlot* s : taken) EXPECT_TRUE(s->in_use);

  slots.give(*taken[2]);
  slots.give(*taken[0]);
  EXPECT_EQ(slots.in_use(), 2u);
  EXPECT_FALSE(taken[2]->in_use);
  // The free list hands back the slots just given, the latest first.
  EXPECT_EQ(&slots.take(), taken[0]);
  EXPECT_EQ(&slots.take(), taken[2]);
  EXPECT_EQ(slots.in_use(), 4u);
  for (OpSlot* s : taken) slots.give(*s);
  EXPECT_EQ(slots.in_use(), 0u);
}

TEST(CompletionRing, IsFirstInFirstOutAcrossTheWrap) {
  CompletionRing ring(3);
  EXPECT_TRUE(ring.empty());
  uint64_t next_in = 0;
  uint64_t next_out = 0;
  for (int round = 0; round < 5; ++round) {  // head moves around the buffer several times
    for (int k = 0; k < 2; ++k) ring.push({next_in++, 1, Op::send, true, 0, nullptr});
    for (int k = 0; k < 2; ++k) EXPECT_EQ(ring.pop().wr_id, next_out++);
  }
  EXPECT_TRUE(ring.empty());
  EXPECT_EQ(next_out, 10u);
}

}  // namespace
}  // namespace dlcnet::ucx
