// OpSlots and CompletionRing: the transport's preallocated bookkeeping (ucx/ucx_op_slots.hpp).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <set>
#include <vector>

#include "ucx/ucx_op_slots.hpp"

namespace dlcnet::ucx {
namespace {

// Pages of [p, p + bytes) the process holds in memory.
size_t resident_pages(const void* p, size_t bytes) {
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in((bytes + page - 1) / page);
  EXPECT_EQ(::mincore(const_cast<void*>(p), bytes, in.data()), 0);
  size_t n = 0;
  for (unsigned char c : in) n += c & 1;
  return n;
}

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

TEST(CompletionRing, WrapsAroundWhileNeverEmpty) {
  CompletionRing ring(3);
  uint64_t next_in = 0;
  uint64_t next_out = 0;
  ring.push({next_in++, 1, Op::send, true, 0, nullptr});
  for (int k = 0; k < 10; ++k) {  // one held throughout: the head goes around three times
    ring.push({next_in++, 1, Op::send, true, 0, nullptr});
    EXPECT_EQ(ring.pop().wr_id, next_out++);
  }
  EXPECT_EQ(ring.pop().wr_id, next_out++);
  EXPECT_TRUE(ring.empty());
}

// Sized for 255 peers' depths (163 840 operations, as a rank of 256 connected to all), used for
// a few at a time: a few pages in memory, not megabytes (256 such ranks on one host spent their
// set-up in page faults).
TEST(OpSlots, HoldInMemoryOnlyWhatWasInFlightAtOnce) {
  constexpr uint32_t kCapacity = 255 * 640;
  OpSlots slots(nullptr, kCapacity);
  CompletionRing ring(kCapacity);
  for (int round = 0; round < 100'000; ++round) {
    OpSlot& a = slots.take();
    OpSlot& b = slots.take();
    ring.push({a.wr_id, 1, Op::send, true, 0, nullptr});
    ring.push({b.wr_id, 1, Op::send, true, 0, nullptr});
    slots.give(b);
    slots.give(a);
    ring.pop();
    ring.pop();
  }
  EXPECT_EQ(slots.all().size(), 2u);  // the two slots, reused
  EXPECT_LE(resident_pages(slots.all().data(), kCapacity * sizeof(OpSlot)), 1u);
  // The ring: its first entries only (it starts again at the front once empty).
  EXPECT_LE(resident_pages(ring.data(), kCapacity * sizeof(Completion)), 1u);
}

}  // namespace
}  // namespace dlcnet::ucx
