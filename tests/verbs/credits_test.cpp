#include "verbs/credits.hpp"

#include <gtest/gtest.h>

namespace dlcnet::verbs {
namespace {

TEST(SqCredits, FullAtDepthAndASignaledCompletionRetiresEverythingBefore) {
  SqCredits c(8);
  for (int i = 0; i < 8; ++i) {
    ASSERT_FALSE(c.full());
    c.on_posted(i == 3);
  }
  EXPECT_TRUE(c.full());
  EXPECT_EQ(c.outstanding(), 8u);
  c.on_completed(3);  // requests 0..3 are done, the unsignaled 0..2 included
  EXPECT_FALSE(c.full());
  EXPECT_EQ(c.outstanding(), 4u);
  EXPECT_EQ(c.retired(), 4u);
}

TEST(SqCredits, ForcesASignalSoUnsignaledRunsNeverFillTheQueue) {
  SqCredits c(8);  // at most 8 / 2 = 4 in a row: 3 unsignaled, then a forced signal
  int forced_at = -1;
  for (int i = 0; i < 8 && forced_at < 0; ++i) {
    if (c.must_signal(false)) forced_at = i;
    c.on_posted(c.must_signal(false));
  }
  EXPECT_EQ(forced_at, 3);
  EXPECT_TRUE(c.must_signal(true));  // the caller's request always counts
}

TEST(SqCredits, DepthOneSignalsEverything) {
  SqCredits c(1);
  EXPECT_TRUE(c.must_signal(false));
  c.on_posted(true);
  EXPECT_TRUE(c.full());
  c.on_completed(0);
  EXPECT_FALSE(c.full());
}

TEST(SqCredits, ErrorFlushesOfEarlierRequestsNeverMoveBackwards) {
  SqCredits c(4);
  for (int i = 0; i < 4; ++i) c.on_posted(true);
  c.on_completed(2);
  c.on_completed(1);  // out of order would be a bug elsewhere; stay at the furthest point
  EXPECT_EQ(c.retired(), 3u);
}

TEST(SqCredits, WidensTruncatedSequenceNumbersAcrossTheWrap) {
  constexpr unsigned kBits = 4;  // small so the wrap is reachable: sequence numbers mod 16
  SqCredits c(8);
  for (uint64_t i = 0; i < 30; ++i) {
    c.on_posted(true);
    const uint64_t seq = c.widen(i & 0xF, kBits);
    ASSERT_EQ(seq, i);
    c.on_completed(seq);
  }
}

TEST(RqCredits, CountsEveryReceive) {
  RqCredits r(2);
  r.on_posted();
  r.on_posted();
  EXPECT_TRUE(r.full());
  r.on_completed(r.widen(0, 48));
  EXPECT_FALSE(r.full());
  EXPECT_EQ(r.outstanding(), 1u);
}

TEST(SlotTable, RoundsUpToAPowerOfTwo) {
  EXPECT_EQ(slot_table_size(1), 1u);
  EXPECT_EQ(slot_table_size(128), 128u);
  EXPECT_EQ(slot_table_size(129), 256u);
  EXPECT_EQ(slot_table_size(500), 512u);
}

}  // namespace
}  // namespace dlcnet::verbs
