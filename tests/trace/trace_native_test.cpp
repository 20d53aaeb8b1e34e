// The native CSV format: round trips with SketchDLC, and its own rejections.
#include "trace/trace_native.hpp"

#include <gtest/gtest.h>

#include "tests/trace/trace_test_util.hpp"
#include "trace/trace_sketch_writer.hpp"

namespace dlcnet::trace {
namespace {

// Same records (what the formats both carry), same dependencies, same messages.
void expect_same(const Job& a, const Job& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  EXPECT_EQ(a.messages.size(), b.messages.size());
  for (size_t n = 0; n < a.nodes.size(); ++n) {
    const Node& x = a.nodes[n];
    const Node& y = b.nodes[n];
    EXPECT_EQ(x.present, y.present);
    ASSERT_EQ(x.records.size(), y.records.size()) << x.name();
    EXPECT_EQ(x.deps, y.deps) << x.name();
    for (size_t i = 0; i < x.records.size(); ++i) {
      const Record& r = x.records[i];
      const Record& s = y.records[i];
      EXPECT_EQ(r.op, s.op);
      EXPECT_EQ(r.peer, s.peer);
      EXPECT_EQ(r.key, s.key);
      EXPECT_EQ(r.opnum, s.opnum);
      EXPECT_EQ(r.iteration, s.iteration);
      EXPECT_EQ(r.length, s.length);
      EXPECT_EQ(r.time_ns, s.time_ns);
      EXPECT_EQ(r.dtime_ns, s.dtime_ns);
      EXPECT_EQ(r.dep_type(), s.dep_type());
      EXPECT_EQ(r.is_send(), s.is_send());
      EXPECT_EQ(r.is_init(), s.is_init());
    }
  }
}

TEST(Native, RoundTripThroughNativeAndBackToSketchDlc) {
  const LoadResult orig = test::load(test::data("basic"));
  ASSERT_TRUE(orig.ok());
  test::TempDir dir;
  write_native(orig.job, dir / "job.csv");
  EXPECT_TRUE(is_native_file(dir / "job.csv"));
  const LoadResult native = test::load(dir / "job.csv");
  ASSERT_TRUE(native.ok()) << native.diagnostics.report();
  EXPECT_EQ(native.diagnostics.warnings(), 0u);
  expect_same(orig.job, native.job);

  write_sketch_job(native.job, dir / "back");
  const LoadResult back = test::load(dir / "back");
  ASSERT_TRUE(back.ok()) << back.diagnostics.report();
  EXPECT_EQ(back.diagnostics.warnings(), 0u);
  expect_same(orig.job, back.job);
}

// What a user of another framework writes: no opnums, no dep_type, rows in any node order.
TEST(Native, MinimalHandWrittenFile) {
  test::TempDir dir;
  test::write_file(dir / "mine.csv",
                   "# dlcnet-trace 1 workers=1 servers=1\n"
                   "node,id,op,peer,key,iteration,bytes,time_ns,dtime_ns,deps\n"
                   "w0,10,push_send,s0,0,1,1024,1000,,\n"
                   "s0,1,push_recv,w0,0,1,1024,5000,,\n"
                   "s0,2,push_send,w0,0,1,64,6000,1000,1\n"
                   "w0,11,push_recv,s0,0,1,64,9000,8000,10\n"
                   "w0,12,pull_send,s0,0,1,64,9100,100,11\n"
                   "s0,3,pull_recv,w0,0,1,64,9500,3500,2\n"
                   "s0,4,pull_send,w0,0,1,1024,9600,100,3\n"
                   "w0,13,pull_recv,s0,0,1,1024,12000,2900,12\n");
  const LoadResult res = test::load(dir / "mine.csv");
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  EXPECT_EQ(res.diagnostics.warnings(), 0u) << res.diagnostics.report();
  EXPECT_EQ(res.job.messages.size(), 4u);
  const Node& w0 = res.job.nodes[0];
  EXPECT_EQ(w0.records[0].opnum, 2);  // numbered like a worker without the initialisation
  EXPECT_EQ(w0.records[1].dep_type(), DepType::kPushOnPush);
  EXPECT_EQ(w0.deps_of(3)[0], 2u);
  EXPECT_EQ(res.job.nodes[1].records[0].opnum, 2);
  for (const Message& m : res.job.messages) {
    EXPECT_NE(m.sender_record, kNone);
    EXPECT_NE(m.receiver_record, kNone);
  }
  // And it converts to a SketchDLC capture that validates.
  write_sketch_job(res.job, dir / "sk");
  const LoadResult sk = test::load(dir / "sk");
  EXPECT_TRUE(sk.ok()) << sk.diagnostics.report();
  EXPECT_EQ(sk.diagnostics.warnings(), 0u);
}

TEST(Native, RejectionsNameTheLine) {
  test::TempDir dir;
  const std::string head =
      "# dlcnet-trace 1 workers=1 servers=1\nnode,id,op,peer,key,iteration,bytes,deps\n";
  test::write_file(dir / "a.csv", head + "w0,1,push_send,s0,0,1,64,\nw0,2,push_recv,s0,0,1,64,7\n");
  LoadResult res = test::load(dir / "a.csv");
  EXPECT_THAT(test::messages(res.diagnostics, Problem::kDanglingDependency)[0],
              ::testing::HasSubstr("a.csv:4: error: field 'deps': id 7"));
  test::write_file(dir / "b.csv", head + "w0,1,push_fly,s0,0,1,64,\n");
  res = test::load(dir / "b.csv");
  EXPECT_THAT(test::messages(res.diagnostics, Problem::kBadNumber)[0],
              ::testing::HasSubstr("b.csv:3: error: field 'op'"));
  test::write_file(dir / "c.csv", "# dlcnet-trace 1 workers=1 servers=1\nnode,id,op\n");
  res = test::load(dir / "c.csv");
  EXPECT_THAT(test::messages(res.diagnostics, Problem::kBadHeader)[0],
              ::testing::HasSubstr("c.csv:2: error: column line has no 'peer' column"));
}

}  // namespace
}  // namespace dlcnet::trace
