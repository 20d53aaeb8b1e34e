// dlc-trace on native CSV version 2 files, end to end: the hand-made data-parallel job of
// tests/data/any_rank validates and counts as derived by hand; one bad copy per kind of
// error, each refused naming the file, the line and the field; a Chakra job converted to CSV
// validates and counts as the ET files do.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tests/trace/chakra_test_util.hpp"
#include "tests/trace/trace_test_util.hpp"

namespace dlcnet::trace::chakra {
namespace {

using ::testing::HasSubstr;
using trace::test::CliRun;

CliRun run_csv(const std::string& args) {
  return trace::test::run_shell(std::string(DLC_TRACE_BIN) + " " + args);
}

const std::string kJob = trace::test::data("../any_rank/dp3.csv");

// By hand from dp3.csv: three ranks; the all-reduce of S = 3 MiB among N = 3 is a ring, 2(N-1) =
// 4 messages of S/N = 1 MiB sent and received per rank. Rank 0: 1 MiB of activations sent and
// 512 KiB of gradients received; rank 1 relays both ways (1 MiB + 512 KiB each way); rank 2
// receives 1 MiB and sends 512 KiB. Compute: 2000 + 1000, 1500 + 1000, 1000 + 1000 us (999500 ns
// rounds to 1000 us).
TEST(ChakraNativeCli, DataParallelJobValidatesAndCounts) {
  CliRun r = run_csv("validate " + kJob);
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("clean: Chakra job, 3 ranks, 17 nodes"));
  r = run_csv("stats -q --json - " + kJob);
  ASSERT_EQ(r.exit, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  ASSERT_EQ(j["ranks"].size(), 3u);
  constexpr uint64_t kMiB = 1 << 20;
  struct Want {
    uint64_t nodes, compute_us, sends, send_bytes, receives, receive_bytes;
  };
  const Want want[] = {{5, 3000, 1 + 4, kMiB + 4 * kMiB, 1 + 4, kMiB / 2 + 4 * kMiB},
                       {7, 2500, 2 + 4, kMiB * 3 / 2 + 4 * kMiB, 2 + 4, kMiB * 3 / 2 + 4 * kMiB},
                       {5, 2000, 1 + 4, kMiB / 2 + 4 * kMiB, 1 + 4, kMiB + 4 * kMiB}};
  for (size_t i = 0; i < 3; ++i) {
    const auto& rank = j["ranks"][i];
    uint64_t nodes = 0;
    for (const auto& [type, n] : rank["nodes_by_type"].items()) nodes += n.get<uint64_t>();
    EXPECT_EQ(nodes, want[i].nodes) << i;
    EXPECT_EQ(rank["compute_us"], want[i].compute_us) << i;
    EXPECT_EQ(rank["messages"]["sends"], want[i].sends) << i;
    EXPECT_EQ(rank["messages"]["send_bytes"], want[i].send_bytes) << i;
    EXPECT_EQ(rank["messages"]["receives"], want[i].receives) << i;
    EXPECT_EQ(rank["messages"]["receive_bytes"], want[i].receive_bytes) << i;
  }
  ASSERT_EQ(j["collectives"].size(), 1u);
  EXPECT_EQ(j["collectives"][0]["type"], "ALL_REDUCE");
  EXPECT_EQ(j["collectives"][0]["messages"]["sends"], 12);
}

struct BadCsv {
  const char* what;
  int line;          // the line of dp3.csv replaced (0: none)
  const char* with;  // its new text
  int names_line;    // the line the error names
  const char* field;
  const char* says;
};

// dp3.csv's lines: 1 the magic, 2 the columns, 5 to 9 rank 0, 10 to 16 rank 1, 17 to 21 rank 2.
const BadCsv kBadCsv[] = {
    {"bad header", 1, "# dlcnet-trace 2 rank=3", 1, "field 'ranks'", "ranks=N"},
    {"unknown type", 6, "0,2,sendd,1,1,1048576,,,,1,", 6, "field 'type'",
     "unknown node type 'sendd'"},
    {"unknown collective", 9, "0,5,coll,,,3145728,allreduce,,,4,", 9, "field 'collective'",
     "unknown collective 'allreduce'"},
    {"negative size", 6, "0,2,send,1,1,-1048576,,,,1,", 6, "field 'bytes'", "'-1048576'"},
    {"size past 2^64-1", 6, "0,2,send,1,1,18446744073709551616,,,,1,", 6, "field 'bytes'",
     "0 to 2^64-1"},
    {"nan duration", 5, "0,1,comp,,,,,,nan,,", 5, "field 'duration_ns'", "found 'nan'"},
    {"send without its receive", 17, "2,1,comp,,,,,,,,", 12, "field 'peer'",
     "a send without its receive: rank 2 has no recv"},
    {"dependency on a missing id", 11, "1,2,comp,,,,,,1500000,9,", 11, "field 'deps'",
     "no node with id 9 of rank 1"},
    {"cycle", 5, "0,1,comp,,,,,,2000000,2,", 5, "field 'deps'/'data_deps'", "dependency cycle"},
    {"rank out of range", 21, "3,5,coll,,,3145728,all_reduce,,,4,", 21, "field 'rank'",
     "a rank of this job (0 to 2), found '3'"},
    {"peer out of range", 6, "0,2,send,7,1,1048576,,,,1,", 6, "field 'peer'",
     "rank 7 is not a rank of this job"},
    {"sizes differ", 10, "1,1,recv,0,1,1000,,,,,", 6, "field 'bytes'",
     "1048576 B, but its receive"},
    {"peer on a compute node", 5, "0,1,comp,1,,,,,2000000,,", 5, "field 'peer'",
     "only a send or recv has one"},
    {"bad escape", 5, "0,1,comp,,,,,,2000000,,a%zz", 5, "field 'name'", "'a%zz'"},
};

std::string replace_line(const std::string& text, int line, const std::string& with) {
  size_t at = 0;
  for (int i = 1; i < line; ++i) at = text.find('\n', at) + 1;
  return text.substr(0, at) + with + text.substr(text.find('\n', at));
}

TEST(ChakraNativeCli, BadFilesNameFileLineAndField) {
  const std::string good = trace::test::read_file(kJob);
  for (const BadCsv& b : kBadCsv) {
    trace::test::TempDir dir;
    const std::string path = dir / "bad.csv";
    trace::test::write_file(path, replace_line(good, b.line, b.with));
    const CliRun r = run_csv("validate " + path);
    EXPECT_EQ(r.exit, 1) << b.what << ":\n" << r.output;
    const std::string where = path + ":" + std::to_string(b.names_line) + ": error: ";
    EXPECT_THAT(r.output, HasSubstr(where)) << b.what << ":\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr(b.field)) << b.what << ":\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr(b.says)) << b.what << ":\n" << r.output;
    EXPECT_EQ(run_csv("stats " + path).exit, 1) << b.what;
  }
}

// Each real trace converted: the CSV counts as the ET files do (the custom ring's and the 8-rank
// all-reduce's statistics equal but for the file names).
TEST(ChakraNativeCli, ConvertedJobCountsAsTheEtFiles) {
  const std::string root = test::shared_data(DLCNET_CHAKRA_DATA);
  if (root.empty()) GTEST_SKIP() << "no " << DLCNET_CHAKRA_DATA;
  for (const char* job : {"custom_ring_allreduce_8npus_1MB", "all_reduce/8npus_1MB"}) {
    trace::test::TempDir dir;
    const std::string csv = dir / "job.csv";
    CliRun r = run_csv("convert " + root + "/" + job + " -o " + csv);
    ASSERT_EQ(r.exit, 0) << r.output;
    EXPECT_THAT(r.output, HasSubstr("(native, version 2): 8 ranks"));
    EXPECT_EQ(trace::test::read_file(csv).substr(0, 25), "# dlcnet-trace 2 ranks=8\n");
    EXPECT_EQ(run_csv("validate -q " + csv).exit, 0);
    auto stats = [](const std::string& in) {
      const CliRun s = run_csv("stats -q --json - " + in);
      EXPECT_EQ(s.exit, 0) << s.output;
      auto j = nlohmann::json::parse(s.output);
      for (auto& rank : j["ranks"]) rank.erase("file");
      return std::make_pair(j["ranks"], j["collectives"]);
    };
    EXPECT_EQ(stats(csv), stats(root + "/" + job)) << job;
    // And the CSV converts to itself.
    r = run_csv("convert " + csv + " -o " + (dir / "again.csv"));
    ASSERT_EQ(r.exit, 0) << r.output;
    EXPECT_EQ(trace::test::read_file(dir / "again.csv"), trace::test::read_file(csv));
  }
  const CliRun r = run_csv("convert " + kJob + " --to sketchdlc -o /dev/null");
  EXPECT_EQ(r.exit, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("a Chakra job converts --to native"));
}

}  // namespace
}  // namespace dlcnet::trace::chakra
