// Which rank stopped without leaving (a frozen process), from the failing ranks' waits
// (core/tcp_bootstrap_stopped.cpp).
#include <gtest/gtest.h>

#include <utility>

#include "core/tcp_bootstrap_impl.hpp"

namespace dlcnet {
namespace {

FailureReport waits(int rank, std::vector<int> on) {
  return FailureReport{rank, "run", "no message from rank ...", std::move(on)};
}

// A ring of 4, rank 2 frozen: rank 3 waits for 2, rank 0 for 3, rank 1 for 0.
TEST(StoppedRank, FollowsTheRingToTheRankThatSentNoReport) {
  const std::vector<FailureReport> reports = {waits(3, {2}), waits(1, {0})};
  const Stopped s = stopped_rank(0, reports, {3}, 4);
  EXPECT_EQ(s.rank, 2);
  EXPECT_EQ(s.waiter, 3);
  // The same when rank 3's report came first and made rank 0 fail.
  const Stopped first = stopped_rank(3, reports, {}, 4);
  EXPECT_EQ(first.rank, 2);
}

// A replay, worker 1 frozen: worker 0 waits for the server (2), the server for both workers.
TEST(StoppedRank, PassesRanksThatReportedOnTheirWay) {
  const Stopped s = stopped_rank(0, {waits(2, {0, 1})}, {2}, 3);
  EXPECT_EQ(s.rank, 1);
  EXPECT_EQ(s.waiter, 2);
}

// A fan-in, worker 2 frozen: worker 1 ran out of time waiting for the server (rank 0) a moment
// before the server's wait for worker 2 did; the server, failing on that report while it still
// waited, reports its own wait (rethrow_during_wait), and the trail goes on to worker 2.
TEST(StoppedRank, GoesOnThroughRankZerosUnfinishedWait) {
  const Stopped s = stopped_rank(1, {waits(1, {0})}, {2}, 4);
  EXPECT_EQ(s.rank, 2);
  EXPECT_EQ(s.waiter, 0);
  EXPECT_EQ(stopped_rank(1, {waits(1, {0})}, {}, 4).rank, -1);  // without it: rank 1 is named
}

// No trail reaches a silent rank: a rank that failed for another reason, a loop, no wait.
TEST(StoppedRank, NamesNoneWhereTheTrailEndsElsewhere) {
  EXPECT_EQ(stopped_rank(1, {waits(1, {})}, {}, 3).rank, -1);
  EXPECT_EQ(stopped_rank(0, {waits(1, {0}), waits(2, {1})}, {2}, 3).rank, -1);
  EXPECT_EQ(stopped_rank(0, {}, {}, 3).rank, -1);
  EXPECT_EQ(stopped_rank(0, {}, {7, -1}, 3).rank, -1);  // out of range: ignored
}

}  // namespace
}  // namespace dlcnet
