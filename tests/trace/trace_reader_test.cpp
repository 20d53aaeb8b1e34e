// Reading the hand-written jobs of tests/data/trace: every operation, every dependency type,
// the one-to-many lists, a two-server job, a job with one node's file, the formatting a real
// capture may have.
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "tests/trace/trace_test_util.hpp"

namespace dlcnet::trace {
namespace {

using test::data;
using test::find;
using test::load;

class BasicJob : public ::testing::Test {
 protected:
  void SetUp() override {
    res_ = load(data("basic"));
    ASSERT_TRUE(res_.ok()) << res_.diagnostics.report();
  }
  const Job& job() const { return res_.job; }
  const Node& w0() const { return res_.job.nodes[0]; }
  const Node& w1() const { return res_.job.nodes[1]; }
  const Node& s0() const { return res_.job.nodes[2]; }
  LoadResult res_;
};

TEST_F(BasicJob, NodesRolesAndCounts) {
  EXPECT_EQ(job().num_workers, 2);
  EXPECT_EQ(job().num_servers, 1);
  EXPECT_EQ(res_.diagnostics.warnings(), 0u);
  EXPECT_TRUE(w0().present && w1().present && s0().present);
  EXPECT_FALSE(job().nodes[3].present);  // the scheduler wrote no data file
  EXPECT_EQ(w0().role, Role::kWorker);
  EXPECT_EQ(s0().role, Role::kServer);
  EXPECT_EQ(s0().index, 0);
  EXPECT_EQ(w0().hostname, "host-w0");
  EXPECT_EQ(w0().records.size(), 26u);
  EXPECT_EQ(w1().records.size(), 20u);
  EXPECT_EQ(s0().records.size(), 46u);
  EXPECT_EQ(job().messages.size(), 46u);  // every message seen from both sides
  EXPECT_EQ(w0().control.size(), 2u);     // trace_sch_record.txt beside the data file
  EXPECT_EQ(s0().control.size(), 1u);
  EXPECT_EQ(w0().control[1].op, Op::kSchedulerToWorker);
}

TEST_F(BasicJob, EveryOperationAndDependencyType) {
  std::set<Op> ops;
  std::set<std::pair<Role, DepType>> types;
  for (const Node* n : {&w0(), &w1(), &s0()}) {
    for (const Record& r : n->records) {
      ops.insert(r.op);
      if (r.is_data()) types.insert({n->role, r.dep_type()});
    }
  }
  for (size_t i = 0; i < kNumDataOps + 2; ++i) EXPECT_TRUE(ops.count(static_cast<Op>(i))) << i;
  for (int t = 0; t <= 4; ++t) {
    EXPECT_TRUE(types.count({Role::kWorker, static_cast<DepType>(t)})) << "worker type " << t;
    EXPECT_TRUE(types.count({Role::kServer, static_cast<DepType>(t)})) << "server type " << t;
  }
}

TEST_F(BasicJob, FieldsOfOneRecord) {
  // worker0 line 19: 4 2 0 60 -15 Push_Recv_Worker 1-1-s0 1 35 1500000000 2038 1-0-s0
  const Record& r = w0().records[find(w0(), 1, 1, 2)];
  EXPECT_EQ(r.op, Op::kPushRecvWorker);
  EXPECT_EQ(r.line, 19u);
  EXPECT_EQ(r.length, 60u);
  EXPECT_EQ(r.peer, 2);
  EXPECT_FALSE(r.is_send());
  EXPECT_TRUE(r.is_init());  // Dep_PP -15
  EXPECT_EQ(r.iteration, 0);
  EXPECT_EQ(r.phase(), Phase::kPushRecv);
  EXPECT_EQ(r.dep_type(), DepType::kPushOnPush);
  EXPECT_EQ(r.dtime_ns, 35'000);
  EXPECT_EQ(r.time_ns, 1'500'000'000'002'038'000);
}

TEST_F(BasicJob, DependenciesResolveToRecordIndices) {
  // Worker: a push of iteration 1 waits for the pull reply of the initialisation.
  const uint32_t push = find(w0(), 0, 4, 2);
  ASSERT_EQ(w0().deps_of(push).size(), 1u);
  EXPECT_EQ(w0().deps_of(push)[0], find(w0(), 0, 3, 2));
  // Server, synchronous: the acknowledgement waits for the pushes of both workers.
  const uint32_t ack = find(s0(), 0, 3, 0);
  const auto deps = s0().deps_of(ack);
  ASSERT_EQ(deps.size(), 2u);
  EXPECT_EQ(deps[0], find(s0(), 0, 2, 0));
  EXPECT_EQ(deps[1], find(s0(), 0, 2, 1));
  // Server initialisation: one entry "0--2-w0"; other workers' first pull: "0--1-w0".
  EXPECT_EQ(s0().deps_of(find(s0(), 0, -1, 0))[0], find(s0(), 0, -2, 0));
  EXPECT_EQ(s0().deps_of(find(s0(), 0, 0, 1))[0], find(s0(), 0, -1, 0));
  // Push-on-pull at a server names "opnum-wN" without the key.
  EXPECT_EQ(s0().deps_of(find(s0(), 1, 2, 1))[0], find(s0(), 1, 1, 1));
  // Independent records have none.
  EXPECT_TRUE(w1().deps_of(find(w1(), 0, 0, 2)).empty());
}

TEST_F(BasicJob, IterationsFollowEachNodesNumbering) {
  EXPECT_EQ(w0().records[find(w0(), 0, 4, 2)].iteration, 1);   // worker 0: 4i
  EXPECT_EQ(w1().records[find(w1(), 0, 2, 2)].iteration, 1);   // others: 4i-2
  EXPECT_EQ(s0().records[find(s0(), 0, 2, 0)].iteration, 1);   // server: 4i-2
  EXPECT_EQ(s0().records[find(s0(), 0, -2, 0)].iteration, 0);  // initialisation
  EXPECT_EQ(w1().records[find(w1(), 1, 9, 2)].iteration, 2);
}

TEST_F(BasicJob, MessagesMatchAcrossFilesWhoseOpnumsDiffer) {
  // Worker 0's push 0-4-s0 is the server's 0-2-w0 (server opnum = worker 0's minus 2).
  const uint32_t w = find(w0(), 0, 4, 2);
  const uint32_t s = find(s0(), 0, 2, 0);
  const uint32_t m = w0().records[w].message;
  ASSERT_NE(m, kNone);
  EXPECT_EQ(s0().records[s].message, m);
  const Message& msg = job().messages[m];
  EXPECT_EQ(msg.sender, 0);
  EXPECT_EQ(msg.sender_record, w);
  EXPECT_EQ(msg.receiver, 2);
  EXPECT_EQ(msg.receiver_record, s);
  // Worker 1 numbers like the server: same opnums.
  const Message& pull = job().messages[w1().records[find(w1(), 1, 5, 2)].message];
  EXPECT_EQ(pull.sender, 2);
  EXPECT_EQ(pull.sender_record, find(s0(), 1, 5, 1));
  // Set-up commands pair by order.
  const Message& cmd = job().messages[w0().records[0].message];
  EXPECT_EQ(w0().records[0].op, Op::kCommandToServers);
  EXPECT_EQ(cmd.receiver, 2);
  EXPECT_EQ(s0().records[cmd.receiver_record].op, Op::kCommandToWorkers);
  for (const Message& x : job().messages) {
    EXPECT_NE(x.sender_record, kNone);
    EXPECT_NE(x.receiver_record, kNone);
    const Record& a = job().nodes[x.sender].records[x.sender_record];
    const Record& b = job().nodes[x.receiver].records[x.receiver_record];
    EXPECT_TRUE(a.is_send());
    EXPECT_FALSE(b.is_send());
    EXPECT_EQ(a.key, b.key);
    EXPECT_EQ(a.iteration, b.iteration);
    EXPECT_EQ(a.phase(), b.phase());
    EXPECT_EQ(a.length, b.length);
  }
}

TEST(TwoServers, OneToManyListsAndStaleEntries) {
  const LoadResult res = load(data("two_servers"));
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  EXPECT_EQ(res.diagnostics.warnings(), 0u);
  const Job& job = res.job;
  EXPECT_EQ(job.num_servers, 2);
  EXPECT_EQ(job.messages.size(), job.record_count() / 2);
  const Node& w1 = job.nodes[1];
  // Key 0 is split over both servers: "(1-s0,1-s1,)" names a pull reply of each.
  const uint32_t push = find(w1, 0, 2, 2);
  const auto deps = w1.deps_of(push);
  ASSERT_EQ(deps.size(), 2u);
  EXPECT_EQ(deps[0], find(w1, 0, 1, 2));
  EXPECT_EQ(deps[1], find(w1, 0, 1, 3));
  // Key 1 lives on server1 only: "(0-s0,5-s1,)" keeps the real entry, notes the other.
  const uint32_t push1 = find(w1, 1, 6, 3);
  ASSERT_EQ(w1.deps_of(push1).size(), 1u);
  EXPECT_EQ(w1.deps_of(push1)[0], find(w1, 1, 5, 3));
  EXPECT_EQ(res.diagnostics.count_of(Problem::kStaleListEntry), 4u);
}

TEST(PartialJob, OneWorkersFileAloneStillLoads) {
  const LoadResult res = load(data("basic/worker0"));
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  EXPECT_EQ(res.diagnostics.warnings(), 0u);
  const Job& job = res.job;
  EXPECT_FALSE(job.nodes[2].present);
  EXPECT_EQ(job.messages.size(), job.nodes[0].records.size());
  const Record& push = job.nodes[0].records[find(job.nodes[0], 0, 4, 2)];
  const Message& m = job.messages[push.message];
  EXPECT_EQ(m.sender, 0);
  EXPECT_EQ(m.receiver, 2);  // known from worker0's own file
  EXPECT_EQ(m.receiver_record, kNone);
  EXPECT_EQ(res.diagnostics.count_of(Problem::kPeerFileAbsent), 26u);
}

TEST(PartialJob, FilesCanBeNamedOneByOne) {
  const LoadResult res =
      load({data("basic/worker1/trace_record.txt"), data("basic/server0/trace_record.txt")});
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  EXPECT_TRUE(res.job.nodes[1].present);
  EXPECT_TRUE(res.job.nodes[2].present);
  EXPECT_FALSE(res.job.nodes[0].present);
  EXPECT_EQ(res.diagnostics.warnings(), 0u);
}

// CRLF line ends (worker0), runs of tabs and spaces and "OP:=Name" (worker1), no newline at
// the end of the file (server0): the same model as the plain files.
TEST(Formatting, ReadsTheSameModelAsThePlainFiles) {
  const LoadResult plain = load(data("basic"));
  const LoadResult odd = load(data("odd/formatting"));
  ASSERT_TRUE(odd.ok()) << odd.diagnostics.report();
  EXPECT_EQ(odd.diagnostics.warnings(), 0u);
  ASSERT_EQ(plain.job.nodes.size(), odd.job.nodes.size());
  for (size_t n = 0; n < plain.job.nodes.size(); ++n) {
    const Node& a = plain.job.nodes[n];
    const Node& b = odd.job.nodes[n];
    ASSERT_EQ(a.records.size(), b.records.size()) << a.name();
    EXPECT_EQ(a.deps, b.deps) << a.name();
    for (size_t i = 0; i < a.records.size(); ++i) {
      EXPECT_EQ(std::memcmp(&a.records[i], &b.records[i], sizeof(Record)), 0)
          << a.name() << " record " << i;
    }
  }
  EXPECT_EQ(plain.job.messages.size(), odd.job.messages.size());
}

}  // namespace
}  // namespace dlcnet::trace
