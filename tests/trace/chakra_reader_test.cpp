// The Chakra reader on bytes written here: attributes in any integer field, nodes without an
// id, durations, and streams that lie about their lengths.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/trace/chakra_test_util.hpp"
#include "tests/trace/trace_test_util.hpp"
#include "trace/chakra/chakra_collectives.hpp"
#include "trace/chakra/chakra_files.hpp"
#include "trace/chakra/chakra_reader.hpp"
#include "trace/chakra/chakra_stats.hpp"

namespace dlcnet::trace::chakra {
namespace {

using test::et_bytes;
using ::testing::HasSubstr;

struct Read {
  bool ok = false;
  Rank rank;
  Diagnostics diag;
};

Read read(const std::string& bytes, int32_t rank = 0) {
  Read r;
  r.ok = read_rank(bytes, "job.0.et", rank, r.rank, r.diag);
  return r;
}

std::string first_error(const Diagnostics& d) {
  return d.kept().empty() ? "" : Diagnostics::format(d.kept().front());
}

TEST(ChakraReader, IntegerAttributesFromAnyIntegerField) {
  for (const char* field :
       {"int32_val", "int64_val", "uint32_val", "uint64_val", "sint32_val", "sint64_val",
        "fixed32_val", "fixed64_val", "sfixed32_val", "sfixed64_val"}) {
    pb::Node n;
    n.set_id(3);
    n.set_type(pb::COMM_SEND_NODE);
    test::set_int(n, "comm_size", 4096, field);
    test::set_int(n, "comm_dst", 2, field);
    test::set_int(n, "comm_tag", 77, field);
    const Read r = read(et_bytes({n}), 1);
    ASSERT_TRUE(r.ok) << field << ": " << first_error(r.diag);
    ASSERT_EQ(r.rank.nodes.size(), 1u);
    const Node& got = r.rank.nodes[0];
    EXPECT_EQ(got.size, 4096u) << field;
    EXPECT_EQ(got.dst, 2) << field;
    EXPECT_EQ(got.src, 1) << field;  // the file's rank
    EXPECT_EQ(got.tag, 77) << field;
  }
}

TEST(ChakraReader, NodeWithoutIdRuntimeAndStartTime) {
  pb::Node a;  // no id: 0
  a.set_type(pb::COMP_NODE);
  test::set_int(a, "runtime", 250);
  a.set_start_time_micros(1000);
  pb::Node b = test::comp(5, 40, {0});
  b.add_ctrl_deps(0);
  pb::Node m;
  m.set_id(6);
  m.set_type(pb::MEM_LOAD_NODE);
  m.set_duration_micros(9);
  const Read r = read(et_bytes({a, b, m}));
  ASSERT_TRUE(r.ok) << first_error(r.diag);
  ASSERT_EQ(r.rank.nodes.size(), 3u);
  EXPECT_EQ(r.rank.version, "0.0.4");
  EXPECT_EQ(r.rank.nodes[0].id, 0u);
  EXPECT_EQ(r.rank.nodes[0].duration_us, 250u);
  EXPECT_EQ(r.rank.nodes[0].start_us, 1000u);
  EXPECT_EQ(r.rank.nodes[1].duration_us, 40u);
  EXPECT_THAT(r.rank.nodes[1].data_deps(), ::testing::ElementsAre(0u));
  EXPECT_THAT(r.rank.nodes[1].ctrl_deps(), ::testing::ElementsAre(0u));
  EXPECT_EQ(r.rank.nodes[2].type, NodeType::kMemLoad);
  EXPECT_EQ(r.rank.nodes[2].duration_us, 9u);
  EXPECT_EQ(r.rank.nodes[2].size, 0u);
}

TEST(ChakraReader, CollectiveAttributes) {
  pb::Node c = test::coll(0, 7, 1 << 20);
  test::set_string(c, "pg_name", "tp0");
  const Read r = read(et_bytes({c}));
  ASSERT_TRUE(r.ok) << first_error(r.diag);
  EXPECT_EQ(r.rank.nodes[0].collective, Collective::kReduceScatter);
  EXPECT_EQ(r.rank.nodes[0].size, 1u << 20);
  EXPECT_EQ(r.rank.nodes[0].pg_name(), "tp0");
}

// Streams that lie: every one an error naming the file and where, never a crash or an
// allocation of what the length claims.
// Ranks are 32-bit: a peer past that is refused, naming the file, the node and the field.
TEST(ChakraReader, PeerPast32BitsRefused) {
  for (const bool send : {true, false}) {
    for (const int64_t peer : {int64_t{1} << 31, -(int64_t{1} << 31) - 1}) {
      pb::Node n = send ? test::send(3, 1, 0, 64) : test::recv(3, 1, 0, 64);
      const char* field = send ? "comm_dst" : "comm_src";
      for (pb::Attribute& a : *n.mutable_attr()) {
        if (a.name() == field) a.set_int64_val(peer);
      }
      const Read r = read(et_bytes({n}));
      EXPECT_FALSE(r.ok) << peer;
      EXPECT_THAT(
          first_error(r.diag),
          HasSubstr("job.0.et: error: node #0 (id 3, 'n3'): field '" + std::string(field) +
                    "': overflows: " + std::to_string(peer) + " is outside -2^31 to 2^31-1"));
    }
  }
}

TEST(ChakraReader, StreamsThatLie) {
  const std::string good = et_bytes({test::comp(1, 5)});
  const std::string meta = test::frame(
      "\x0a\x05"
      "0.0.4");
  struct Case {
    const char* what;
    std::string bytes;
    const char* says;
  };
  const std::vector<Case> cases{
      {"empty", "", "empty file"},
      {"huge length", meta + "\xff\xff\xff\xff\xff\xff\xff\xff\x7f",
       "byte offset 8: message length"},
      {"cut message", good.substr(0, good.size() - 2), "node #0 at byte offset 8"},
      {"cut varint", meta + "\x80", "ends inside the varint"},
      {"eleven-byte varint", meta + std::string(10, '\x80') + '\x01', "longer than ten bytes"},
      {"varint past 64 bits", meta + std::string(11, '\xff'), "overflows 64 bits"},
      {"garbage node", meta + test::frame("\xff\xff\xff"), "does not parse as a Chakra Node"},
      {"garbage metadata", std::string("\x03\xff\xff\xff"), "GlobalMetadata"},
  };
  for (const Case& c : cases) {
    const Read r = read(c.bytes);
    EXPECT_FALSE(r.ok) << c.what;
    EXPECT_EQ(r.diag.count_of(Problem::kNotATrace), 1u) << c.what;
    EXPECT_THAT(first_error(r.diag), HasSubstr("job.0.et: error: ")) << c.what;
    EXPECT_THAT(first_error(r.diag), HasSubstr(c.says)) << c.what;
  }
}

// dlc-trace picks the Chakra reader only for .et files or a directory that holds some, and for
// native version 2 files.
TEST(ChakraFiles, DetectsOnlyEtFiles) {
  const std::vector<std::string> sketch{trace::test::data("reject/cycle.txt")};
  EXPECT_FALSE(is_chakra_input(sketch));
  const std::vector<std::string> sketch_dir{trace::test::data("")};
  EXPECT_FALSE(is_chakra_input(sketch_dir));
  trace::test::TempDir dir;
  trace::test::write_file(dir / "job.0.et", et_bytes({}));
  const std::vector<std::string> et_dir{dir.path()};
  EXPECT_TRUE(is_chakra_input(et_dir));
  const std::vector<std::string> et_file{dir / "job.0.et"};
  EXPECT_TRUE(is_chakra_input(et_file));
  // A native CSV file of version 2, named (any name) or in a directory (*.csv), is one; version
  // 1 is not.
  trace::test::TempDir csv;
  const std::vector<std::string> v1{csv / "v1.csv"}, v2{csv / "v2.txt"}, csv_dir{csv.path()};
  trace::test::write_file(v1[0], "# dlcnet-trace 1 workers=1 servers=1\n");
  EXPECT_FALSE(is_chakra_input(v1));
  EXPECT_FALSE(is_chakra_input(csv_dir));
  trace::test::write_file(v2[0], "# dlcnet-trace 2 ranks=1\n");
  EXPECT_TRUE(is_chakra_input(v2));
  EXPECT_FALSE(is_chakra_input(csv_dir));  // not a *.csv
  trace::test::write_file(csv / "v2.csv", "# dlcnet-trace 2 ranks=1\n");
  EXPECT_TRUE(is_chakra_input(csv_dir));
}

// Ring all-reduce of S bytes among N ranks moves 2(N-1)S/N bytes per rank on average, and
// 2(N-1) messages per rank, whether or not N divides S; all-gather and reduce-scatter (the
// whole buffer) (N-1)S/N; rooted ones by the root.
TEST(ChakraCollectives, MessageCountsAndBytes) {
  const CollectiveOptions whole;
  for (const int32_t n : {2, 3, 4, 8}) {
    for (const uint64_t s : {uint64_t{1} << 20, uint64_t{1000003}, uint64_t{5}}) {
      Traffic sum;
      Traffic ag;
      Traffic rs;
      for (int32_t r = 0; r < n; ++r) {
        const Traffic t = expand(Collective::kAllReduce, s, n, r, whole);
        EXPECT_EQ(t.sends, 2u * static_cast<uint64_t>(n - 1));
        EXPECT_EQ(t.recvs, t.sends);
        sum += t;
        ag += expand(Collective::kAllGather, s, n, r, whole);
        rs += expand(Collective::kReduceScatter, s, n, r, whole);
      }
      const auto peers = static_cast<uint64_t>(n - 1);
      EXPECT_EQ(sum.send_bytes, 2 * peers * s) << n << " " << s;
      EXPECT_EQ(sum.recv_bytes, 2 * peers * s) << n << " " << s;
      EXPECT_EQ(ag.send_bytes, peers * s);
      EXPECT_EQ(rs.recv_bytes, peers * s);
      EXPECT_EQ(ag.sends, peers * static_cast<uint64_t>(n));
    }
  }
  CollectiveOptions per_rank;
  per_rank.size_reading = SizeReading::kPerRank;
  const Traffic t = expand(Collective::kAllGather, 4096, 4, 1, per_rank);
  EXPECT_EQ(t.sends, 3u);
  EXPECT_EQ(t.send_bytes, 3u * 4096);
  CollectiveOptions root2;
  root2.root = 2;
  EXPECT_EQ(expand(Collective::kBroadcast, 100, 4, 2, root2).send_bytes, 300u);
  EXPECT_EQ(expand(Collective::kBroadcast, 100, 4, 0, root2).recv_bytes, 100u);
  EXPECT_EQ(expand(Collective::kReduce, 100, 4, 2, root2).recvs, 3u);
  EXPECT_EQ(expand(Collective::kBarrier, 0, 4, 1, root2).sends, 1u);
  EXPECT_EQ(expand(Collective::kAllReduce, 100, 1, 0, whole).sends, 0u);
}

// Overlap of compute and communication from the trace's start times: compute [100, 300),
// communication [250, 400) and [280, 350): 50 us together; unknown when a node has no start.
TEST(ChakraStats, OverlapFromStartTimes) {
  const auto timed = [](pb::Node n, uint64_t start) {
    n.set_start_time_micros(start);
    return n;
  };
  Job job;
  job.world = 2;
  Read a = read(et_bytes({timed(test::comp(1, 200), 100), timed(test::coll(2, 0, 64), 250),
                          timed(test::coll(3, 9, 0), 280)}));
  ASSERT_TRUE(a.ok) << first_error(a.diag);
  a.rank.nodes[1].duration_us = 150;
  a.rank.nodes[2].duration_us = 70;
  job.ranks.push_back(std::move(a.rank));
  const JobStats s = compute_stats(job, {});
  ASSERT_TRUE(s.ranks[0].overlap_us.has_value());
  EXPECT_EQ(*s.ranks[0].overlap_us, 50u);
  job.ranks[0].nodes[2].start_us = 0;
  EXPECT_FALSE(compute_stats(job, {}).ranks[0].overlap_us.has_value());
}

}  // namespace
}  // namespace dlcnet::trace::chakra
