// Tolerable oddities of real captures: warnings with counts, and the rest of the job loads.
#include <gtest/gtest.h>

#include "tests/trace/trace_test_util.hpp"

namespace dlcnet::trace {
namespace {

using test::data;
using test::find;
using test::load;
using test::messages;
using ::testing::HasSubstr;

TEST(Oddities, RepeatedIdIsAWarning) {
  const LoadResult res = load(data("odd/repeated_id.txt"));
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  EXPECT_EQ(res.diagnostics.count_of(Problem::kRepeatedId), 1u);
  EXPECT_EQ(res.diagnostics.warnings(), 1u);
  EXPECT_THAT(messages(res.diagnostics, Problem::kRepeatedId)[0],
              HasSubstr("odd/repeated_id.txt:20: warning: ID 4"));
  EXPECT_EQ(res.job.nodes[1].records.size(), 20u);  // nothing dropped
}

// Two rows swapped: the pull request now comes before the acknowledgement it depends on.
TEST(Oddities, RecordsOutOfOrderStillResolve) {
  const LoadResult res = load(data("odd/out_of_order.txt"));
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  EXPECT_EQ(res.diagnostics.count_of(Problem::kOutOfOrder), 1u);
  EXPECT_THAT(messages(res.diagnostics, Problem::kOutOfOrder)[0],
              HasSubstr("out_of_order.txt:24: warning: ID 8 after ID 9"));
  const Node& w1 = res.job.nodes[1];
  const uint32_t pull = find(w1, 0, 4, 2);
  const uint32_t ack = find(w1, 0, 3, 2);
  EXPECT_LT(pull, ack);  // file order is kept
  ASSERT_EQ(w1.deps_of(pull).size(), 1u);
  EXPECT_EQ(w1.deps_of(pull)[0], ack);  // a forward dependency, resolved
}

TEST(Oddities, RepeatedOpIdResolvesToTheFirst) {
  const LoadResult res = load(data("odd/repeated_op_id.txt"));
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  EXPECT_EQ(res.diagnostics.count_of(Problem::kRepeatedOpId), 1u);
  EXPECT_EQ(res.diagnostics.count_of(Problem::kRepeatedId), 1u);
  EXPECT_THAT(messages(res.diagnostics, Problem::kRepeatedOpId)[0],
              HasSubstr("repeated_op_id.txt:27: warning: OP_ID 0-5-s0 repeats"));
  const Node& w1 = res.job.nodes[1];
  ASSERT_EQ(w1.records.size(), 21u);
  const uint32_t first = find(w1, 0, 5, 2);
  EXPECT_EQ(w1.records[first].line, 26u);
  EXPECT_TRUE(w1.records[first + 1].is_duplicate());
  EXPECT_EQ(w1.deps_of(find(w1, 0, 6, 2))[0], first);
}

// The server's file ends in the middle of a line: that line is a warning, and the worker's
// messages whose other side was cut are warnings too; everything else is matched.
TEST(Oddities, FileCutShort) {
  const LoadResult res = load(data("odd/cut_short"));
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  const Diagnostics& d = res.diagnostics;
  EXPECT_EQ(d.count_of(Problem::kTruncatedLine), 1u);
  EXPECT_THAT(messages(d, Problem::kTruncatedLine)[0],
              HasSubstr("cut_short/server0/trace_record.txt:51: warning: last line cut short"));
  EXPECT_EQ(d.count_of(Problem::kUnmatchedSend), 2u);
  EXPECT_EQ(d.count_of(Problem::kUnmatchedReceive), 3u);
  EXPECT_THAT(messages(d, Problem::kUnmatchedSend)[0],
              HasSubstr("worker0/trace_record.txt:36: warning: Pull_Send_Worker 1-10-s0"));
  EXPECT_EQ(res.job.nodes[2].records.size(), 36u);  // 37 rows, the cut one dropped
  const Node& w0 = res.job.nodes[0];
  const Message& m = res.job.messages[w0.records[find(w0, 1, 10, 2)].message];
  EXPECT_EQ(m.receiver_record, kNone);
  EXPECT_EQ(m.sender_record, find(w0, 1, 10, 2));
}

}  // namespace
}  // namespace dlcnet::trace
