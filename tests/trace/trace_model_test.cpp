#include "trace/trace_model.hpp"

#include <gtest/gtest.h>

#include "trace/trace_channels.hpp"

namespace dlcnet::trace {
namespace {

TEST(TraceModel, RecordAndMessageStayCompact) {
  EXPECT_EQ(sizeof(Record), 48u);
  EXPECT_EQ(sizeof(Message), 12u);
}

TEST(TraceModel, OperationNamesRoundTripAndBothSendComSpellingsAreAccepted) {
  for (size_t i = 0; i < kNumOps; ++i) {
    const auto op = static_cast<Op>(i);
    EXPECT_EQ(op_from_name(op_name(op)), op) << op_name(op);
  }
  EXPECT_EQ(op_from_name("SendCom_TO_Servers"), Op::kCommandToServers);
  EXPECT_EQ(op_from_name("SendCom_To_Servers"), Op::kCommandToServers);
  EXPECT_EQ(op_from_name("SendCom_To_Workers"), Op::kCommandToWorkers);
  EXPECT_FALSE(op_from_name("Push_Fly_Worker"));
}

TEST(TraceModel, CounterpartsAndDependencyTargetsPairUp) {
  for (size_t i = 0; i < kNumDataOps; ++i) {
    const auto op = static_cast<Op>(i);
    EXPECT_EQ(op_counterpart(op_counterpart(op)), op);
    EXPECT_EQ(op_phase(op_counterpart(op)), op_phase(op));
    EXPECT_NE(op_sends(op), op_sends(op_counterpart(op)));
    EXPECT_EQ(op_role(op_dep_target(op)), op_role(op));
    EXPECT_EQ(data_op(op_role(op), op_phase(op)), op);
  }
  EXPECT_EQ(op_dep_type(Op::kPushSendWorker), DepType::kPushOnPull);
  EXPECT_EQ(op_dep_target(Op::kPushSendServer), Op::kPushRecvServer);
}

// Worker 0 numbers from 0 (initialisation push at 0-1, initial pull at 2-3, iteration i at
// 4i..4i+3); servers and the other workers from -2/0 (iteration i at 4i-2..4i+1).
TEST(TraceModel, IterationNumbering) {
  EXPECT_EQ(numbering_offset(0, Phase::kPushSend), 0);
  EXPECT_EQ(numbering_offset(4, Phase::kPushSend), 0);
  EXPECT_EQ(numbering_offset(7, Phase::kPullRecv), 0);
  EXPECT_EQ(numbering_offset(-2, Phase::kPushSend), 2);
  EXPECT_EQ(numbering_offset(-1, Phase::kPushRecv), 2);
  EXPECT_EQ(numbering_offset(0, Phase::kPullSend), 2);
  EXPECT_EQ(numbering_offset(5, Phase::kPullRecv), 2);
  EXPECT_EQ(numbering_offset(1, Phase::kPushSend), 3);  // inconsistent: 1 or 3
  EXPECT_EQ(iteration_of(4, Phase::kPushSend, 0), 1);
  EXPECT_EQ(iteration_of(3, Phase::kPullRecv, 0), 0);
  EXPECT_EQ(iteration_of(-2, Phase::kPushSend, 2), 0);
  EXPECT_EQ(iteration_of(2, Phase::kPushSend, 2), 1);
  EXPECT_EQ(iteration_of(5, Phase::kPullRecv, 2), 1);
  EXPECT_EQ(iteration_of(-5, Phase::kPushSend, 2), -1);  // floor, not truncation
  for (int32_t it = 0; it < 5; ++it) {
    for (int p = 0; p < 4; ++p) {
      for (int off : {0, 2}) {
        const auto ph = static_cast<Phase>(p);
        EXPECT_EQ(iteration_of(opnum_of(it, ph, off), ph, off), it);
        EXPECT_EQ(numbering_offset(opnum_of(it, ph, off), ph), off);
      }
    }
  }
}

TEST(TraceModel, SkeletonRanks) {
  const Job job = make_job_skeleton(3, 2);
  ASSERT_EQ(job.nodes.size(), 6u);
  EXPECT_EQ(job.nodes[2].role, Role::kWorker);
  EXPECT_EQ(job.nodes[3].role, Role::kServer);
  EXPECT_EQ(job.nodes[4].index, 1);
  EXPECT_EQ(job.nodes[5].role, Role::kScheduler);
  EXPECT_EQ(job.server_rank(1), 4);
  EXPECT_EQ(job.scheduler_rank(), 5);
  EXPECT_EQ(job.nodes[4].name(), "server1");
}

// Small peers and keys go through a dense table, the others through the hash: both must
// give every channel one id and report absent ones as absent.
TEST(TraceModel, ChannelIdsInsideAndOutsideTheDenseRange) {
  ChannelTable t;
  const std::vector<std::pair<uint16_t, int32_t>> pairs = {
      {0, 0},    {1, 5},     {5, 1023}, {5, 1024}, {255, 7},   {256, 7},
      {300, -1}, {2, 70000}, {3, -5},   {7, 0},    {65534, 3}, {0, INT32_MAX}};
  std::vector<uint32_t> ids;
  for (const auto& [peer, key] : pairs) ids.push_back(t.get_or_add(peer, key));
  for (size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_EQ(ids[i], i) << i;
    EXPECT_EQ(t.get_or_add(pairs[i].first, pairs[i].second), ids[i]) << i;
    EXPECT_EQ(t.find(pairs[i].first, pairs[i].second), ids[i]) << i;
    EXPECT_EQ(t[ids[i]].peer, pairs[i].first);
    EXPECT_EQ(t[ids[i]].key, pairs[i].second);
  }
  EXPECT_EQ(t.find(0, 1), kNone);
  EXPECT_EQ(t.find(6, 1023), kNone);  // a peer beyond the dense rows made so far
  EXPECT_EQ(t.find(255, 8), kNone);
  EXPECT_EQ(t.find(256, 8), kNone);
  EXPECT_EQ(t.find(1, 1024), kNone);
  EXPECT_EQ(t.size(), pairs.size());
  t.release();
  EXPECT_EQ(t.find(1, 5), kNone);
}

// A node holds dense rows for the peers it exchanged with only: a worker of a 256-rank job,
// talking to the 8 servers numbered last, holds 8 rows, not 256 (every rank of a job loads every
// node: rows up to the highest peer made a host of 256 ranks zero tens of gigabytes).
TEST(TraceModel, DenseRowsOnlyForThePeersSeen) {
  ChannelTable t;
  uint32_t next = 0;
  for (uint16_t peer = 248; peer < 256; ++peer)
    for (int32_t key = 0; key < 10; ++key) EXPECT_EQ(t.get_or_add(peer, key), next++);
  EXPECT_EQ(t.size(), 80u);
  EXPECT_EQ(t.find(250, 3), 23u);
  EXPECT_EQ(t.find(247, 3), kNone);
  EXPECT_EQ(t.find(0, 0), kNone);
  EXPECT_LT(t.memory_bytes(), 64u * 1024) << "8 peers' rows are 32 KiB";
}

}  // namespace
}  // namespace dlcnet::trace
