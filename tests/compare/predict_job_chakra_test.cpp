// dlc-compare predict-job on Chakra jobs, end to end: a job replayed by dlc-replay (--spawn, UCX
// over tcp) with --export-flows, predicted by predict-job named after the replay's flow map, and
// compared with --free-starts: every message of the replay predicted, none missing and none
// extra, named by the same (src, dst, key, opnum). On a hand-made job (compute nodes,
// collectives, point-to-point messages) and on a real trace of ../shared/data/chakra (skipped
// without it, failed without it when CI is set). And what predict-job refuses: a job with
// errors (exit 3, naming the file, the node and the field), the options dlc-replay refuses for
// a Chakra job and a root past the smallest group (exit 2), a Chakra option on a SketchDLC job.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/trace/chakra_test_util.hpp"
#include "tests/trace/trace_test_util.hpp"

namespace dlcnet::trace::chakra {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using trace::test::CliRun;
using trace::test::run_shell;
using trace::test::TempDir;

const std::string kCompare = DLC_COMPARE_BIN;
const std::string kCalibration = std::string(DLCNET_COMPARE_DATA) + "/cal.json";
const std::string kSomeMap = std::string(DLCNET_COMPARE_DATA) + "/replay.flow.txt.map";

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Three ranks: each computes 300 us, all-reduces 30000 B, computes 200 us, sends 4096 B to the
// next rank and receives from the previous one, computes 100 us after the receive, then a
// broadcast of 8192 B from the root after both.
std::vector<std::vector<pb::Node>> three_ranks() {
  std::vector<std::vector<pb::Node>> ranks(3);
  for (int r = 0; r < 3; ++r) {
    pb::Node all_reduce = test::coll(2, 0, 30000);
    all_reduce.add_data_deps(1);
    pb::Node broadcast = test::coll(7, 5, 8192);
    broadcast.add_data_deps(4);
    broadcast.add_data_deps(6);
    ranks[static_cast<size_t>(r)] = {test::comp(1, 300),
                                     all_reduce,
                                     test::comp(3, 200, {2}),
                                     test::send(4, (r + 1) % 3, 1, 4096, {3}),
                                     test::recv(5, (r + 2) % 3, 1, 4096, {3}),
                                     test::comp(6, 100, {5}),
                                     broadcast};
  }
  return ranks;
}

// Replays `job` with `options`, predicts it with `predict_options` and compares: returns
// predict-job's output after checking that every flow of the replay was predicted.
std::string replay_predict_compare(const std::string& job, const std::string& options,
                                   const std::string& predict_options, const TempDir& out) {
  const std::string flows = out / "run.flow";
  CliRun r = run_shell(std::string(DLC_REPLAY_BIN) + " " + job +
                       " --spawn --transport ucx --ucx-tls tcp,self --timeout 60 --export-flows " +
                       flows + " --json " + (out / "r.json") + " " + options);
  EXPECT_EQ(r.exit, 0) << r.output;
  CliRun p =
      run_shell(kCompare + " predict-job " + job + " --like " + flows + ".map" + " --calibration " +
                kCalibration + " --out " + (out / "p.fct") + " " + predict_options);
  EXPECT_EQ(p.exit, 0) << p.output;
  r = run_shell(kCompare + " " + flows + ".map " + (out / "p.fct") + " --calibration " +
                kCalibration + " --free-starts --json " + (out / "cmp.json"));
  EXPECT_EQ(r.exit, 0) << r.output;
  if (r.exit != 0 || p.exit != 0) return p.output;
  const nlohmann::json replay = read_json(out / "r.json");
  const nlohmann::json cmp = read_json(out / "cmp.json");
  const uint64_t messages = replay["messages"]["flows"].get<uint64_t>();
  EXPECT_GT(messages, 0u);
  EXPECT_EQ(cmp["flows"]["compared"].get<uint64_t>() + cmp["flows"]["unmeasurable"].get<uint64_t>(),
            messages);
  EXPECT_EQ(cmp["flows"]["unpredicted"], 0);  // none missing
  EXPECT_EQ(cmp["predicted_starts"], "its own");
  EXPECT_THAT(p.output, HasSubstr("predict-job: " + std::to_string(messages) + " messages on "));
  EXPECT_THAT(p.output, HasSubstr("; " + std::to_string(messages) + " named after"));
  return p.output;
}

TEST(PredictJobChakra, HandMadeJobEveryMessagePredicted) {
  TempDir dir, out;
  test::write_job(dir.path(), three_ranks());
  // all-reduce 2(N-1) per rank, ring sends 1 per rank, broadcast N-1 from the root: 12 + 3 + 2.
  const std::string said = replay_predict_compare(dir.path(), "--root 1", "--root 1", out);
  EXPECT_THAT(said, HasSubstr("predict-job: 17 messages on 3 ranks (dag)"));
  EXPECT_THAT(said, Not(HasSubstr("not in it")));  // none extra
  // Another root names other broadcast messages: the prediction must be given the replay's.
  const CliRun other =
      run_shell(kCompare + " predict-job " + dir.path() + " --like " + (out / "run.flow.map") +
                " --calibration " + kCalibration + " --out " + (out / "q.fct"));
  EXPECT_EQ(other.exit, 0) << other.output;
  EXPECT_THAT(other.output, HasSubstr("2 not in it (left out)"));
}

TEST(PredictJobChakra, RealTraceEveryMessagePredicted) {
  const std::string root = test::shared_data(DLCNET_CHAKRA_DATA);  // skipped without it
  if (root.empty()) GTEST_SKIP() << "no ../shared/data/chakra";
  TempDir out;
  // 4 ranks, one all-reduce of 1 MiB: 6 messages of 262144 B per rank.
  const std::string said = replay_predict_compare(root + "/all_reduce/4npus_1MB", "", "", out);
  EXPECT_THAT(said, HasSubstr("predict-job: 24 messages on 4 ranks (dag)"));
  EXPECT_THAT(said, Not(HasSubstr("not in it")));
}

CliRun predict_job(const std::string& job, const std::string& options) {
  TempDir out;
  return run_shell(kCompare + " predict-job " + job + " --like " + kSomeMap + " --calibration " +
                   kCalibration + " --out " + (out / "p.fct") + " " + options);
}

TEST(PredictJobChakra, Refusals) {
  TempDir bad;  // rank 0 sends to rank 1, which has no receive for it
  test::write_job(bad.path(),
                  {{test::comp(1, 10), test::send(2, 1, 1, 4096, {1})}, {test::comp(1, 10)}});
  CliRun r = predict_job(bad.path(), "");
  EXPECT_EQ(r.exit, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("job.0.et"));
  EXPECT_THAT(r.output,
              HasSubstr("node #1 (id 2, 'n2'): field 'comm_dst': a send without its receive"));

  TempDir job;
  test::write_job(job.path(), three_ranks());
  r = predict_job(job.path(), "--iterations 2");
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("dlc-compare: error: --iterations: a Chakra job has no "
                                  "iterations to cut or loop; it is replayed once"));
  r = predict_job(job.path(), "--map 0=1");
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--map: a Chakra job's rank r is the file of rank r"));
  r = predict_job(job.path(), "--root 3");
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--root 3: the job has ranks 0 to 2"));

  TempDir grouped;  // tensor-parallel groups of 2 ranks with broadcasts in them
  test::write_job(grouped.path(), test::grouped_job(test::kGroups));
  r = predict_job(grouped.path(), "--root 2");
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--root 2: a root is a rank of the collective's group, and the "
                                  "smallest group a rooted collective runs in has 2 ranks"));

  for (const char* option : {"--root 1", "--coll-size per-rank", "--comm-groups g.json"}) {
    r = predict_job(DLCNET_EXAMPLE_JOB, option);
    EXPECT_EQ(r.exit, 2) << r.output;
    const std::string name = std::string(option).substr(0, std::string(option).find(' '));
    EXPECT_THAT(r.output, HasSubstr(name + ": reads a Chakra job's collectives; this job is "
                                           "SketchDLC or native"));
  }
}

}  // namespace
}  // namespace dlcnet::trace::chakra
