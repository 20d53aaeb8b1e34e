// dlc-replay on hand-made Chakra jobs, end to end (--spawn, UCX over shared memory): a job with
// every collective Chakra names, point-to-point messages and compute nodes replays every message
// once, and reports each collective's messages and span; a bad job is refused naming the file,
// the node and the field, as dlc-trace validate
// does, with the exit code of any bad input (1), before a rank starts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/trace/chakra_test_util.hpp"
#include "tests/trace/trace_test_util.hpp"

namespace dlcnet::trace::chakra {
namespace {

using ::testing::HasSubstr;

using trace::test::CliRun;

CliRun replay(const std::string& args) {
  return trace::test::run_shell(std::string(DLC_REPLAY_BIN) + " " + args);
}

using Ranks = std::vector<std::vector<pb::Node>>;

void write_job(const trace::test::TempDir& dir, const Ranks& ranks) {
  test::write_job(dir.path(), ranks);
}

constexpr const char* kUcx = " --spawn --transport ucx --ucx-tls sm --timeout 60";

// Three ranks: each computes, takes part in every collective Chakra names (ids 10 to 19, each
// after the one before, comm_size 3001: chunks of 1001, 1000 and 1000 B), sends 512 B to the
// next rank and receives from the previous one, and computes once both are done.
Ranks every_collective() {
  Ranks ranks(3);
  for (int r = 0; r < 3; ++r) {
    auto& nodes = ranks[static_cast<size_t>(r)];
    nodes.push_back(test::comp(1, 20));
    uint64_t previous = 1;
    for (int c = 0; c < 10; ++c) {
      pb::Node n = test::coll(static_cast<uint64_t>(10 + c), c, 3001);
      n.add_data_deps(previous);
      previous = n.id();
      nodes.push_back(n);
    }
    nodes.push_back(test::send(30, (r + 1) % 3, 5, 512, {previous}));
    nodes.push_back(test::recv(31, (r + 2) % 3, 5, 512, {previous}));
    nodes.push_back(test::comp(32, 5, {30, 31}));
  }
  return ranks;
}

// Messages per collective among 3 ranks, from the algorithms of docs/chakra.md: all-reduce
// 2(N-1) per rank (12), all-gather, reduce-scatter (twice: block too) and all-to-all N-1 per
// rank (6 each), reduce, gather, broadcast and scatter N-1 (2 each), barrier 2(N-1) (4); and
// the 3 point-to-point messages.
constexpr uint64_t kEveryCollectiveMessages = 12 + 4 * 6 + 4 * 2 + 4 + 3;

TEST(ChakraReplay, EveryCollectiveReplaysEachMessageOnce) {
  trace::test::TempDir dir;
  write_job(dir, every_collective());
  CliRun r = replay(dir.path() + " --check");
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("check passed: " + std::to_string(kEveryCollectiveMessages) +
                                  " messages, 3 ranks (Chakra, 42 nodes)"));
  for (const char* mode : {"dag", "timed", "asap"}) {
    const std::string json = dir / (std::string(mode) + ".json");
    r = replay(dir.path() + kUcx + " --mode " + mode + " --json " + json);
    ASSERT_EQ(r.exit, 0) << r.output;
    EXPECT_THAT(r.output, HasSubstr("# OK: " + std::to_string(kEveryCollectiveMessages) +
                                    " messages replayed, each sent and received once"));
    std::ifstream in(json);
    const auto j = nlohmann::json::parse(in);
    EXPECT_EQ(j["messages"]["sent"], kEveryCollectiveMessages) << mode;
    EXPECT_EQ(j["messages"]["received"], kEveryCollectiveMessages) << mode;
    EXPECT_EQ(j["messages"]["duplicates"], 0) << mode;
    EXPECT_EQ(j["job"]["format"], "chakra");
    EXPECT_EQ(j["ranks"][1]["node"], "job.1.et");
    EXPECT_DOUBLE_EQ(j["ranks"][1]["trace_compute_s"].get<double>(), 25e-6);  // 20 + 5 us
    // The replay's own split: dag computes 20 + 5 us per rank (one before and one after its
    // messages, on rank 0's clock: a drift of 1e-4 is a 2.5 ns error); the others none.
    for (const auto& k : j["ranks"]) {
      const double compute = k["compute_s"], comm = k["comm_s"], both = k["overlap_s"];
      EXPECT_NEAR(compute, std::string(mode) == "dag" ? 25e-6 : 0.0, 3e-9) << mode;
      EXPECT_GT(comm, 0) << mode;
      EXPECT_LE(comm, k["duration_s"].get<double>() + 1e-6) << mode;
      EXPECT_GE(both, 0) << mode;
      EXPECT_LE(both, std::min(compute, comm)) << mode;
    }
    // Chakra's collective types 0 to 9 in order, with their messages among 3 ranks.
    const std::vector<uint64_t> per_collective{12, 2, 6, 2, 2, 2, 6, 6, 6, 4};
    ASSERT_EQ(j["collectives"].size(), per_collective.size()) << mode;
    for (size_t c = 0; c < per_collective.size(); ++c) {
      const auto& x = j["collectives"][c];
      EXPECT_EQ(x["number"], c + 1);
      EXPECT_EQ(x["messages"], per_collective[c]) << x["collective"];
      EXPECT_GT(x["span_s"].get<double>(), 0) << x["collective"];
    }
  }
  // The root of the rooted collectives, as dlc-trace stats takes it.
  r = replay(dir.path() + kUcx + " --root 2");
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("root 2"));
}

TEST(ChakraReplay, BadJobRefusedNamingFileNodeAndField) {
  // Rank 0 sends to rank 1, which has no receive for it.
  trace::test::TempDir dir;
  write_job(dir, {{test::comp(1, 10), test::send(2, 1, 1, 4096, {1})}, {test::comp(1, 10)}});
  for (const std::string& args : {std::string(kUcx), std::string(" --check")}) {
    const CliRun r = replay(dir.path() + args);
    EXPECT_EQ(r.exit, 1) << r.output;
    EXPECT_THAT(r.output, HasSubstr("job.0.et"));
    EXPECT_THAT(r.output, HasSubstr("node #1 (id 2, 'n2'): field 'comm_dst': a send without its "
                                    "receive"));
  }
}

// Collectives of process groups run among their group's ranks (test::grouped_job: two
// tensor-parallel groups of 2 and the world, 4 ranks): the groups' all-reduces 2(N-1) = 2
// messages per rank (8), their broadcasts 1 each (2), the world all-reduce 6 per rank (24),
// group "1"'s all-gather 1 per rank (2);
// groups from the metadata node or from ASTRA-sim's communicator-group file; a group nobody
// defines is refused before a rank starts.
TEST(ChakraReplay, ProcessGroupsReplayAmongTheirRanks) {
  constexpr int kMessages = 8 + 2 + 24 + 2;
  trace::test::TempDir with_node;
  write_job(with_node, test::grouped_job(test::kGroups));
  trace::test::TempDir with_file;
  write_job(with_file, test::grouped_job(""));
  const std::string groups = with_file / "groups.json";
  trace::test::write_file(groups, R"({"0": [0, 1, 2, 3], "1": [0, 1], "2": [3, 2]})");
  for (const std::string& job : {with_node.path(), with_file.path() + " --comm-groups " + groups}) {
    CliRun r = replay(job + kUcx + " --root 1");
    EXPECT_EQ(r.exit, 0) << r.output;
    EXPECT_THAT(r.output, HasSubstr("# OK: " + std::to_string(kMessages) +
                                    " messages replayed, each sent and received once"));
  }
  const CliRun r = replay(with_file.path() + kUcx);
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("job.0.et: error: node #0 (id 2, 'n2'): field 'pg_name': "
                                  "process group '1' is not defined"));
  const CliRun root = replay(with_node.path() + kUcx + " --root 2");
  EXPECT_EQ(root.exit, 1) << root.output;
  EXPECT_THAT(root.output, HasSubstr("--root 2: a root is a rank of the collective's group, and "
                                     "the smallest group a rooted collective runs in has 2"));
}

// Rank 0's send of tag 1 waits for rank 1's message, which rank 1 sends only once rank 0's
// send of tag 2 arrived; in rank 0's order tag 1 comes first, and a peer's messages travel in
// that order (docs/chakra.md, "What each node becomes"): no progress, a clear failure, no hang.
TEST(ChakraReplay, OrderItCannotKeepFailsWithinTheTimeout) {
  trace::test::TempDir dir;
  write_job(dir,
            {{test::recv(1, 1, 3, 64), test::send(2, 1, 1, 64, {1}), test::send(3, 1, 2, 64)},
             {test::recv(1, 0, 2, 64), test::send(2, 0, 3, 64, {1}), test::recv(3, 0, 1, 64)}});
  const CliRun r = replay(dir.path() + " --spawn --transport ucx --ucx-tls sm --timeout 3");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("no progress"));
  EXPECT_THAT(r.output, HasSubstr("waiting for 1 messages from rank 1 (job.1.et)"));
}

TEST(ChakraReplay, SketchOptionsRefused) {
  trace::test::TempDir dir;
  write_job(dir, every_collective());
  CliRun r = replay(dir.path() + kUcx + " --iterations 2");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--iterations: a Chakra job has no iterations"));
  r = replay(dir.path() + kUcx + " --root 3");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("--root 3: the job has ranks 0 to 2"));
}

}  // namespace
}  // namespace dlcnet::trace::chakra
