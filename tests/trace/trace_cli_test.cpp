// dlc-trace end to end: the built binary, as a user runs it.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "tests/trace/trace_test_util.hpp"

namespace dlcnet::trace {
namespace {

using test::CliRun;

// `before`: shell text in front of the binary (a pipe into it).
CliRun run(const std::string& args, const std::string& before = "") {
  return test::run_shell(before + std::string(DLC_TRACE_BIN) + " " + args);
}

TEST(Cli, SynthValidateStatsConvertRoundTrip) {
  test::TempDir dir;
  const std::string job = dir / "job";
  CliRun r =
      run("synth -o " + job + " -w 2 -s 2 -n 25 -m lenet5 --compute-ms 5 --update-us 60 --seed 3");
  ASSERT_EQ(r.exit, 0) << r.output;

  r = run("validate " + job);
  ASSERT_EQ(r.exit, 0) << r.output;
  EXPECT_THAT(r.output, ::testing::HasSubstr("clean: 4 node files"));

  r = run("stats " + job + " --json " + (dir / "stats.json"));
  ASSERT_EQ(r.exit, 0) << r.output;
  EXPECT_THAT(r.output, ::testing::HasSubstr("Worker overheads"));
  const auto j = nlohmann::json::parse(test::read_file(dir / "stats.json"));
  EXPECT_EQ(j["context"]["tool"], "dlc-trace stats");
  EXPECT_EQ(j["diagnostics"]["errors"], 0);
  EXPECT_EQ(j["job"]["iterations"], 25);
  EXPECT_NEAR(j["summary"]["computation_s"]["mean"].get<double>(), 0.005, 0.005 * 0.02);
  EXPECT_NEAR(j["summary"]["update_s"]["mean"].get<double>(), 60e-6, 60e-6 * 0.05);
  EXPECT_EQ(j["message_sizes"]["min"], 73);
  EXPECT_EQ(j["message_sizes"]["max"], 1600073);
  ASSERT_EQ(j["keys"].size(), 8u);
  EXPECT_EQ(j["keys"][4]["push_bytes_max"], 1600000 + 73);  // fc1_weight
  EXPECT_EQ(j["keys"][7]["push_bytes_max"], 40 + 73);       // fc2_bias
  const uint64_t records = j["job"]["records"];

  const std::string csv = dir / "job.csv";
  r = run("convert " + job + " -o " + csv);
  ASSERT_EQ(r.exit, 0) << r.output;
  EXPECT_THAT(test::read_file(csv), ::testing::StartsWith("# dlcnet-trace 1 workers=2"));
  r = run("validate " + csv);
  ASSERT_EQ(r.exit, 0) << r.output;

  const std::string back = dir / "back";
  r = run("convert " + csv + " -o " + back);
  ASSERT_EQ(r.exit, 0) << r.output;
  r = run("validate " + back);
  ASSERT_EQ(r.exit, 0) << r.output;
  r = run("stats -q " + back + " --json " + (dir / "back.json"));
  ASSERT_EQ(r.exit, 0) << r.output;
  const auto b = nlohmann::json::parse(test::read_file(dir / "back.json"));
  EXPECT_EQ(b["job"]["records"], records);
  EXPECT_DOUBLE_EQ(b["summary"]["computation_s"]["mean"].get<double>(),
                   j["summary"]["computation_s"]["mean"].get<double>());
}

TEST(Cli, BadFileGivesNonZeroExitWithFileAndLine) {
  CliRun r = run("validate " + test::data("reject/non_numeric.txt"));
  EXPECT_EQ(r.exit, 1);
  EXPECT_THAT(r.output, ::testing::HasSubstr("reject/non_numeric.txt:18: error: field 'length'"));
  r = run("stats " + test::data("reject/cycle.txt"));
  EXPECT_EQ(r.exit, 1);
  EXPECT_THAT(r.output, ::testing::HasSubstr("cycle.txt:15: error: dependency cycle"));
  r = run("validate " + test::data("odd/repeated_id.txt"));
  EXPECT_EQ(r.exit, 4);  // warnings only
  r = run("validate /no/such/job");
  EXPECT_EQ(r.exit, 1);
  EXPECT_THAT(r.output, ::testing::HasSubstr("/no/such/job: error: no such file"));
}

// Each kind that occurred is explained once, with its first occurrence as the example; kinds
// that did not occur are not.
TEST(Cli, ValidateExplainsEachKindThatOccurredOnce) {
  CliRun r = run("validate " + test::data("odd/repeated_id.txt"));
  EXPECT_EQ(r.exit, 4);
  EXPECT_THAT(r.output, ::testing::HasSubstr("# what each kind means"));
  EXPECT_THAT(r.output, ::testing::ContainsRegex(
                            "#   repeated_id \\(warning\\): a row's ID equals the previous "
                            "row's[^\n]*; e\\.g\\. [^\n]*repeated_id\\.txt:[0-9]+: warning: "));
  EXPECT_EQ(r.output.find("#   out_of_order"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("#   repeated_id"), r.output.rfind("#   repeated_id")) << r.output;
  // A note, counted without a line of its own, still gets its example's place.
  r = run("validate " + test::data("basic/worker0"));
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_THAT(r.output,
              ::testing::ContainsRegex("#   peer_file_absent \\(note\\): [^\n]*; e\\.g\\. "
                                       "[^\n]*worker0/trace_record\\.txt:[0-9]+\n"));
  // A clean job: no explanations.
  r = run("validate " + test::data("basic"));
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_EQ(r.output.find("# what each kind means"), std::string::npos) << r.output;
}

TEST(Cli, BenchLoadPrintsJson) {
  const CliRun r = run("bench-load " + test::data("basic"));
  ASSERT_EQ(r.exit, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["records"], 92);
  EXPECT_GT(j["records_per_second"].get<double>(), 0);
  EXPECT_GT(j["model_bytes_per_record"].get<double>(), 48);
}

// A job big enough for the reader to size its vectors from a sample of rows, with fewer
// dependencies per row at the start (the first iteration) than later: the model stays under the
// issue's 64 bytes per record, and the dependency vector is not left doubled.
TEST(Cli, BenchLoadHoldsUnder64BytesPerRecord) {
  test::TempDir dir;
  const std::string job = dir / "job";
  CliRun r = run("synth -o " + job + " -m resnet50 -w 2 -s 2 --records 200000 --seed 5 " +
                 "--no-scheduler-files");
  ASSERT_EQ(r.exit, 0) << r.output;
  r = run("bench-load " + job);
  ASSERT_EQ(r.exit, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_GE(j["records"].get<uint64_t>(), 200000u);
  EXPECT_LT(j["model_bytes_per_record"].get<double>(), 64);
  const auto& m = j["model_breakdown"];
  const auto deps = m["dependencies"].get<double>();
  EXPECT_GT(deps, 0);
  EXPECT_LE(m["dependencies_capacity"].get<double>(), deps * 1.04);
  EXPECT_LE(m["records_capacity"].get<double>(), j["records"].get<double>() * 1.01);
}

// Bad numbers are refused by name with the documented exit code of a bad command line (2), not
// CLI11's own (-w 1000000 exited 105, and `--compute-ms nan` produced a job the validator
// rejected), after "dlc-trace: error: ".
TEST(Cli, BadNumbersExitTwoNamingTheOption) {
  test::TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {"-w 1000000", "--workers: '1000000' is out of range"},
      {"-s 0", "--servers: '0' is out of range"},
      {"-n -1", "--iterations: '-1' is negative"},
      {"--compute-ms nan", "--compute-ms: 'nan' is not finite"},
      {"--latency-us inf", "--latency-us: 'inf' is not finite"},
      {"--bandwidth-gbps 0", "--bandwidth-gbps: '0' is out of range"},
      {"--jitter 1", "--jitter: '1' is out of range"},
      {"--seed -1", "--seed: '-1' is negative"}};
  for (const auto& [bad, says] : cases) {
    const CliRun r = run("synth -o " + (dir / "j") + " " + bad);
    EXPECT_EQ(r.exit, 2) << bad << ": " << r.output;
    EXPECT_THAT(r.output, ::testing::HasSubstr(std::string("dlc-trace: error: ") + says))
        << r.output;
  }
  // Each option in range, together beyond what a trace's clock counts: refused before writing.
  const CliRun r = run("synth -o " + (dir / "long") + " -n 10000000 --compute-ms 3600000 -w 100");
  EXPECT_EQ(r.exit, 3) << r.output;
  EXPECT_THAT(r.output, ::testing::HasSubstr("longer than a trace's clock can count"));
  EXPECT_FALSE(std::filesystem::exists(dir / "long/worker0"));
  EXPECT_EQ(run("stats " + test::data("basic") + " --keys -1").exit, 2);
}

// A record of iteration 2^31 - 1: stats ends at once (it allocated 5.6 GB per node, or
// aborted on bad_alloc).
TEST(Cli, StatsOfAnIterationNear2To31EndsAtOnce) {
  test::TempDir dir;
  test::write_file(dir / "big.csv",
                   "# dlcnet-trace 1 workers=1 servers=1\n"
                   "node,id,op,peer,key,iteration,bytes,time_ns\n"
                   "w0,0,push_send,s0,0,2147483647,1024,1000\n"
                   "s0,0,push_recv,w0,0,2147483647,1024,2000\n");
  const CliRun r = run("stats " + (dir / "big.csv") + " --per-iteration");
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_THAT(r.output, ::testing::HasSubstr("2147483647"));
}

// A pipe: nothing lost to the format sniff (its first line was).
TEST(Cli, ValidateReadsAPipe) {
  const std::string file = test::data("basic/worker0/trace_record.txt");
  const CliRun r = run("validate /dev/stdin", "cat " + file + " | ");
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_THAT(r.output, ::testing::HasSubstr("clean: 1 node files, 26 records"));
}

}  // namespace
}  // namespace dlcnet::trace
