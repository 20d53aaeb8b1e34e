// dlc-trace validate and stats on Chakra jobs, end to end: hand-made bad jobs (one per kind
// of error: each names the file, the node and the field, and exits 1) and the real traces of
// ../shared/data/chakra, held against the counts their README's definitions give.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "tests/trace/chakra_test_util.hpp"
#include "tests/trace/trace_test_util.hpp"

namespace dlcnet::trace::chakra {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

using trace::test::CliRun;

CliRun run(const std::string& args) {
  return trace::test::run_shell(std::string(DLC_TRACE_BIN) + " " + args);
}

// A job of two ranks: rank 0 computes then sends 4096 B (tag 1) to rank 1, which receives it
// and computes. `edit` spoils it.
using Ranks = std::array<std::vector<pb::Node>, 2>;
Ranks good_job() {
  return {{{test::comp(1, 10), test::send(2, 1, 1, 4096, {1})},
           {test::recv(1, 0, 1, 4096), test::comp(2, 10, {1})}}};
}

void write_job(const trace::test::TempDir& dir, const Ranks& ranks) {
  for (size_t r = 0; r < ranks.size(); ++r) {
    trace::test::write_file(dir / ("job." + std::to_string(r) + ".et"), test::et_bytes(ranks[r]));
  }
}

TEST(ChakraCli, GoodJobValidatesAndStats) {
  trace::test::TempDir dir;
  write_job(dir, good_job());
  CliRun r = run("validate " + dir.path());
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("clean: Chakra job, 2 ranks, 4 nodes"));
  r = run("stats -q --json - " + dir.path());
  ASSERT_EQ(r.exit, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["format"], "chakra");
  EXPECT_EQ(j["ranks"][0]["messages"]["sends"], 1);
  EXPECT_EQ(j["ranks"][0]["messages"]["send_bytes"], 4096);
  EXPECT_EQ(j["ranks"][1]["messages"]["receive_bytes"], 4096);
  EXPECT_EQ(j["ranks"][1]["compute_us"], 10);
  EXPECT_EQ(j["ranks"][1]["nodes_by_type"]["COMM_RECV_NODE"], 1);
  // bench-load (bench/chakra_load.sh): the nodes counted, a model of at least their array.
  const std::string bench = dir / "bench.json";
  r = run("bench-load " + dir.path() + " --json " + bench);
  ASSERT_EQ(r.exit, 0) << r.output;
  std::ifstream in(bench);
  const auto b = nlohmann::json::parse(in);
  EXPECT_EQ(b["format"], "chakra");
  EXPECT_EQ(b["nodes"], 4);
  EXPECT_GE(b["model_bytes_per_node"].get<double>(), b["node_bytes"].get<double>());
  EXPECT_GT(b["nodes_per_cpu_second"].get<double>(), 0);
}

struct Bad {
  const char* what;
  void (*edit)(Ranks&);
  const char* file;   // the file the error names
  const char* node;   // "node #i (id N"
  const char* field;  // "field 'x'"
  const char* says;
};

const Bad kBad[] = {
    {"dangling dependency", [](Ranks& j) { j[1][1].add_data_deps(99); }, "job.1.et",
     "node #1 (id 2", "field 'data_deps'", "no node with id 99"},
    {"cycle",
     [](Ranks& j) {
       j[0][0].add_ctrl_deps(2);  // 1 -> 2 -> 1
     },
     "job.0.et", "(id ", "field 'ctrl_deps'/'data_deps'", "dependency cycle"},
    {"send without receive", [](Ranks& j) { j[1].erase(j[1].begin()); }, "job.0.et",
     "node #1 (id 2", "field 'comm_dst'", "a send without its receive"},
    {"sizes differ", [](Ranks& j) { j[1][0] = test::recv(1, 0, 1, 4000); }, "job.0.et",
     "node #1 (id 2", "field 'comm_size'", "4096 B, but its receive"},
    {"tag differs", [](Ranks& j) { j[1][0] = test::recv(1, 0, 2, 4096); }, "job.0.et",
     "node #1 (id 2", "field 'comm_dst'", "comm_tag 1"},
    {"unknown node type", [](Ranks& j) { j[0][0].set_type(static_cast<pb::NodeType>(42)); },
     "job.0.et", "node #0 (id 1", "field 'type'", "unknown node type 42"},
    {"unknown collective", [](Ranks& j) { j[0].push_back(test::coll(3, 12, 64)); }, "job.0.et",
     "node #2 (id 3", "field 'comm_type'", "unknown collective type 12"},
    {"size overflows 63 bits",
     [](Ranks& j) {
       pb::Node c = test::coll(3, 0, 0);
       c.mutable_attr()->RemoveLast();
       test::set_int(c, "comm_size", -1, "uint64_val");  // 2^64-1
       j[0].push_back(c);
     },
     "job.0.et", "node #2 (id 3", "field 'comm_size'", "overflows"},
    {"rank's bytes overflow",
     [](Ranks& j) {
       j[0].push_back(test::coll(3, 0, INT64_MAX));
       j[0].push_back(test::coll(4, 0, INT64_MAX));
     },
     "job.0.et", "node #2 (id 3", "field 'comm_size'", "overflow 64 bits"},
    {"negative size", [](Ranks& j) { j[0][1] = test::send(2, 1, 1, -5, {1}); }, "job.0.et",
     "node #1 (id 2", "field 'comm_size'", "negative"},
    {"missing size", [](Ranks& j) { j[0][1].mutable_attr()->RemoveLast(); }, "job.0.et",
     "node #1 (id 2", "field 'comm_size'", "missing"},
    {"peer out of the job", [](Ranks& j) { j[0][1] = test::send(2, 5, 1, 4096, {1}); }, "job.0.et",
     "node #1 (id 2", "field 'comm_dst'", "not a rank of this job"},
};

TEST(ChakraCli, BadJobsNameFileNodeAndField) {
  for (const Bad& b : kBad) {
    trace::test::TempDir dir;
    Ranks job = good_job();
    b.edit(job);
    write_job(dir, job);
    const CliRun r = run("validate " + dir.path());
    EXPECT_EQ(r.exit, 1) << b.what << ":\n" << r.output;
    const std::string where = dir / b.file;
    EXPECT_THAT(r.output, HasSubstr(where + ": error: ")) << b.what << ":\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr(b.node)) << b.what << ":\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr(b.field)) << b.what << ":\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr(b.says)) << b.what << ":\n" << r.output;
    // stats refuses it too, with the same exit code.
    EXPECT_EQ(run("stats " + dir.path()).exit, 1) << b.what;
  }
}

TEST(ChakraCli, RankMissingAndBrokenFile) {
  trace::test::TempDir dir;
  const Ranks job = good_job();
  trace::test::write_file(dir / "job.0.et", test::et_bytes(job[0]));
  trace::test::write_file(dir / "job.2.et", test::et_bytes(job[1]));
  CliRun r = run("validate " + dir.path());
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr(dir / "job.1.et: error: rank 1 is missing")) << r.output;
  // A frame whose length runs past the end of the file.
  trace::test::write_file(dir / "job.1.et", test::et_bytes(job[1]).substr(0, 20));
  fs::remove(dir / "job.2.et");
  r = run("validate " + dir.path());
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr(dir / "job.1.et: error: node #")) << r.output;
  EXPECT_THAT(r.output, HasSubstr("byte offset")) << r.output;
}

// --root and --coll-size: a broadcast from rank 1 and an all-gather of one rank's piece.
TEST(ChakraCli, CollectiveReadings) {
  trace::test::TempDir dir;
  for (int r = 0; r < 3; ++r) {
    trace::test::write_file(dir / ("job." + std::to_string(r) + ".et"),
                            test::et_bytes({test::coll(1, 5, 300), test::coll(2, 2, 300)}));
  }
  CliRun r = run("stats -q --json - --root 1 --coll-size per-rank " + dir.path());
  ASSERT_EQ(r.exit, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  // Rank 1: the broadcast's 2 x 300 B, and 2 x 300 B of the all-gather.
  EXPECT_EQ(j["ranks"][1]["messages"]["sends"], 4);
  EXPECT_EQ(j["ranks"][1]["messages"]["send_bytes"], 1200);
  EXPECT_EQ(j["ranks"][0]["messages"]["sends"], 2);
  EXPECT_EQ(j["ranks"][0]["messages"]["receive_bytes"], 900);
  EXPECT_EQ(j["options"]["size_reading"], "per-rank");
  r = run("stats --root 3 " + dir.path());
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--root 3: the job has ranks 0 to 2"));
}

struct Expected {
  uint64_t sends = 0;
  uint64_t bytes = 0;
};

// The README's definitions: S = 1 MiB, N ranks (from the folder's name); ring all-reduce
// 2(N-1) messages of S/N per rank, all-gather, reduce-scatter and all-to-all N-1 of S/N.
Expected expected(const std::string& coll, uint64_t n) {
  const uint64_t s = uint64_t{1} << 20;
  const uint64_t per = coll == "all_reduce" ? 2 * (n - 1) : n - 1;
  return {per, per * (s / n)};
}

TEST(ChakraCli, RealTracesValidateAndCount) {
  const std::string root = test::shared_data(DLCNET_CHAKRA_DATA);  // skipped without it
  if (root.empty()) GTEST_SKIP() << "no " << DLCNET_CHAKRA_DATA;
  int jobs = 0;
  for (const char* coll : {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"}) {
    for (const uint64_t n : {4u, 8u}) {
      const std::string dir = root + "/" + coll + "/" + std::to_string(n) + "npus_1MB";
      CliRun r = run("validate " + dir);
      EXPECT_EQ(r.exit, 0) << dir << ":\n" << r.output;
      r = run("stats -q --json - " + dir);
      ASSERT_EQ(r.exit, 0) << dir << ":\n" << r.output;
      const auto j = nlohmann::json::parse(r.output);
      ASSERT_EQ(j["ranks"].size(), n) << dir;
      const Expected e = expected(coll, n);
      for (const auto& rank : j["ranks"]) {
        EXPECT_EQ(rank["collectives"], 1) << dir;
        EXPECT_EQ(rank["messages"]["sends"], e.sends) << dir;
        EXPECT_EQ(rank["messages"]["send_bytes"], e.bytes) << dir;
        EXPECT_EQ(rank["messages"]["receives"], e.sends) << dir;
        EXPECT_EQ(rank["messages"]["receive_bytes"], e.bytes) << dir;
      }
      ++jobs;
    }
  }
  // The custom ring: 14 sends and 14 receives of 131072 B per rank, 7 compute nodes.
  const std::string ring = root + "/custom_ring_allreduce_8npus_1MB";
  CliRun r = run("validate " + ring);
  EXPECT_EQ(r.exit, 0) << r.output;
  r = run("stats -q --json - " + ring);
  ASSERT_EQ(r.exit, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  ASSERT_EQ(j["ranks"].size(), 8u);
  for (const auto& rank : j["ranks"]) {
    EXPECT_EQ(rank["nodes_by_type"]["COMM_SEND_NODE"], 14);
    EXPECT_EQ(rank["nodes_by_type"]["COMM_RECV_NODE"], 14);
    EXPECT_EQ(rank["nodes_by_type"]["COMP_NODE"], 7);
    EXPECT_EQ(rank["messages"]["sends"], 14);
    EXPECT_EQ(rank["messages"]["send_bytes"], 14 * 131072);
    EXPECT_EQ(rank["messages"]["receives"], 14);
    EXPECT_EQ(rank["messages"]["receive_bytes"], 14 * 131072);
  }
  EXPECT_EQ(jobs, 8);
}

}  // namespace
}  // namespace dlcnet::trace::chakra
