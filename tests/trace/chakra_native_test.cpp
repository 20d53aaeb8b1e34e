// The native CSV format's version 2 (trace/chakra/chakra_native.hpp) against the Chakra job it
// stands for: every real trace of ../shared/data/chakra written as CSV and read back gives the
// same nodes; names, times and every node kind survive; a job split over several files reads
// as one; files that disagree are refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "tests/trace/chakra_test_util.hpp"
#include "tests/trace/trace_test_util.hpp"
#include "trace/chakra/chakra_loader.hpp"
#include "trace/chakra/chakra_native.hpp"

namespace dlcnet::trace::chakra {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// What the CSV carries of a node: everything but its line, and its index, which the ET reader
// counts over the file's nodes and the CSV reader over the rank's.
void expect_same(const Job& a, const Job& b, const std::string& what) {
  ASSERT_EQ(a.world, b.world) << what;
  ASSERT_EQ(a.ranks.size(), b.ranks.size()) << what;
  for (size_t r = 0; r < a.ranks.size(); ++r) {
    const Rank& x = a.ranks[r];
    const Rank& y = b.ranks[r];
    EXPECT_EQ(x.rank, y.rank) << what;
    ASSERT_EQ(x.nodes.size(), y.nodes.size()) << what << " rank " << r;
    for (size_t i = 0; i < x.nodes.size(); ++i) {
      const Node& m = x.nodes[i];
      const Node& n = y.nodes[i];
      const std::string at = what + " rank " + std::to_string(r) + " node " + std::to_string(i);
      EXPECT_EQ(m.id, n.id) << at;
      EXPECT_EQ(m.type, n.type) << at;
      EXPECT_EQ(m.name(), n.name()) << at;
      EXPECT_EQ(m.ctrl_deps(), n.ctrl_deps()) << at;
      EXPECT_EQ(m.data_deps(), n.data_deps()) << at;
      EXPECT_EQ(m.start_us, n.start_us) << at;
      EXPECT_EQ(m.duration_us, n.duration_us) << at;
      EXPECT_EQ(m.src, n.src) << at;
      EXPECT_EQ(m.dst, n.dst) << at;
      EXPECT_EQ(m.tag, n.tag) << at;
      EXPECT_EQ(m.size, n.size) << at;
      EXPECT_EQ(m.collective, n.collective) << at;
      EXPECT_EQ(m.pg_name(), n.pg_name()) << at;
    }
  }
}

Job round_trip(const Job& job, const trace::test::TempDir& dir, Diagnostics* diag = nullptr) {
  const std::string csv = dir / "job.csv";
  write_native_job(job, csv);
  LoadResult res = load_job(std::vector<std::string>{csv});
  if (diag != nullptr) *diag = res.diagnostics;
  return std::move(res.job);
}

TEST(ChakraNative, RealTracesRoundTrip) {
  const std::string root = test::shared_data(DLCNET_CHAKRA_DATA);
  if (root.empty()) GTEST_SKIP() << "no " << DLCNET_CHAKRA_DATA;
  int jobs = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_directory()) continue;
    bool et = false;
    for (const auto& f : fs::directory_iterator(e.path())) et = et || f.path().extension() == ".et";
    if (!et) continue;
    const LoadResult from_et = load_job(std::vector<std::string>{e.path().string()});
    ASSERT_TRUE(from_et.ok()) << e.path() << ":\n" << from_et.diagnostics.report();
    trace::test::TempDir dir;
    Diagnostics diag;
    const Job back = round_trip(from_et.job, dir, &diag);
    EXPECT_EQ(diag.errors() + diag.warnings(), 0u) << e.path() << ":\n" << diag.report();
    expect_same(from_et.job, back, e.path().string());
    ++jobs;
  }
  EXPECT_EQ(jobs, 9);  // four collectives at 4 and 8 ranks, and the custom ring
}

// Every node kind, every collective, names that need escaping, the ends of the number ranges.
TEST(ChakraNative, EveryKindAndNameSurvives) {
  Job job;
  job.world = 2;
  job.ranks.resize(2);
  uint64_t id = 0;
  for (int32_t r = 0; r < 2; ++r) {
    Rank& rank = job.ranks[static_cast<size_t>(r)];
    rank.rank = r;
    for (size_t t = 1; t < kNumNodeTypes; ++t) {
      Node n;
      n.id = id++;
      n.type = static_cast<NodeType>(t);
      rank.store.set_name(n, "a,b%c#d\te \x01;");
      n.start_us = 123456789;
      n.duration_us = 7;
      if (n.type == NodeType::kCommSend || n.type == NodeType::kCommRecv) {
        const bool send = n.type == NodeType::kCommSend;
        (send ? n.src : n.dst) = r;
        (send ? n.dst : n.src) = 1 - r;
        n.tag = INT64_MIN;
        n.size = UINT64_MAX;
      }
      std::vector<uint64_t> ctrl;
      if (!rank.nodes.empty()) ctrl = {rank.nodes.back().id};
      rank.store.set_deps(n, ctrl, std::vector<uint64_t>{n.id == 0 ? 0 : n.id - 1, n.id});
      rank.nodes.push_back(n);
    }
    for (size_t c = 0; c < kNumCollectives; ++c) {
      Node n;
      n.id = r == 0 ? UINT64_MAX - c : id++;
      n.type = NodeType::kCommColl;
      n.collective = static_cast<Collective>(c);
      n.size = c;
      rank.store.set_pg_name(n, c % 2 == 0 ? "" : " dp, group %1 ");
      rank.nodes.push_back(n);
    }
  }
  trace::test::TempDir dir;
  expect_same(job, round_trip(job, dir), "hand-made");
  EXPECT_THAT(trace::test::read_file(dir / "job.csv"), HasSubstr("a%2Cb%25c%23d%09e %01;"));
}

// Nanoseconds in the CSV, microseconds in Chakra: to the nearest, 500 ns up.
TEST(ChakraNative, TimesRoundToTheNearestMicrosecond) {
  EXPECT_EQ(ns_to_us(0), 0u);
  EXPECT_EQ(ns_to_us(499), 0u);
  EXPECT_EQ(ns_to_us(500), 1u);
  EXPECT_EQ(ns_to_us(1499), 1u);
  EXPECT_EQ(ns_to_us(999500), 1000u);
  EXPECT_EQ(ns_to_us(UINT64_MAX), UINT64_MAX / 1000 + 1);
  Job job;
  job.world = 1;
  job.ranks.resize(1);
  job.ranks[0].file = "t.0.et";
  Node n;
  n.type = NodeType::kComp;
  n.id = 4;
  n.duration_us = UINT64_MAX / 1000 + 1;  // past 2^64-1 ns
  job.ranks[0].nodes.push_back(n);
  trace::test::TempDir dir;
  try {
    write_native_job(job, dir / "t.csv");
    ADD_FAILURE() << "a duration past 2^64-1 ns was written";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("t.0.et: node #0 (id 4): field 'duration_micros'"));
  }
  EXPECT_FALSE(fs::exists(dir / "t.csv"));
}

std::string dp3() {
  return trace::test::read_file(trace::test::data("../any_rank/dp3.csv"));
}

// The lines of dp3.csv of the ranks `keep` (the header lines always).
std::string only_ranks(const std::string& text, const std::string& keep) {
  std::string out;
  size_t at = 0;
  for (int line = 1; at < text.size(); ++line) {
    const size_t nl = text.find('\n', at);
    const std::string l = text.substr(at, nl - at + 1);
    if (line <= 2 || l[0] == '#' || keep.find(l[0]) != std::string::npos) out += l;
    at = nl + 1;
  }
  return out;
}

TEST(ChakraNative, SplitFilesReadAsOneJob) {
  const LoadResult whole =
      load_job(std::vector<std::string>{trace::test::data("../any_rank/dp3.csv")});
  ASSERT_TRUE(whole.ok()) << whole.diagnostics.report();
  trace::test::TempDir dir;
  fs::create_directories(dir / "sub");
  trace::test::write_file(dir / "a.csv", only_ranks(dp3(), "0"));
  trace::test::write_file(dir / "sub/b.csv", only_ranks(dp3(), "12"));
  trace::test::write_file(dir / "notes.txt", "not a trace");
  LoadResult split = load_job(std::vector<std::string>{dir.path()});
  ASSERT_TRUE(split.ok()) << split.diagnostics.report();
  expect_same(whole.job, split.job, "split");
  EXPECT_EQ(split.job.ranks[0].file, dir / "a.csv");
  EXPECT_EQ(split.job.ranks[2].file, dir / "sub/b.csv");

  // A rank in two files.
  trace::test::write_file(dir / "c.csv", only_ranks(dp3(), "2"));
  split = load_job(std::vector<std::string>{dir.path()});
  EXPECT_THAT(
      split.diagnostics.report(),
      HasSubstr(dir / "sub/b.csv:12: error: field 'rank': rank 2 is also in " + dir / "c.csv"));
  fs::remove(dir / "c.csv");
  // Another job size, a version 1 file, an ET file.
  std::string other = only_ranks(dp3(), "");
  other.replace(other.find("ranks=3"), 7, "ranks=4");
  trace::test::write_file(dir / "c.csv", other);
  trace::test::write_file(dir / "d.csv", "# dlcnet-trace 1 workers=1 servers=1\nnode,id\n");
  trace::test::write_file(dir / "job.0.et", test::et_bytes({}));
  split = load_job(std::vector<std::string>{dir.path()});
  const std::string report = split.diagnostics.report();
  EXPECT_THAT(report, HasSubstr(dir / "c.csv:1: error: field 'ranks': 4, but"));
  EXPECT_THAT(report, HasSubstr(dir / "d.csv:1: error: native format version 1 beside"));
  EXPECT_THAT(report, HasSubstr(dir / "job.0.et: error: a Chakra ET file beside"));
}

}  // namespace
}  // namespace dlcnet::trace::chakra
