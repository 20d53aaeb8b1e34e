// What a Chakra job holds per node: the node itself, and the names and dependency lists kept in
// its rank's store, which stay where they are when the rank moves.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/trace/chakra_test_util.hpp"
#include "trace/chakra/chakra_load_bench.hpp"
#include "trace/chakra/chakra_reader.hpp"

namespace dlcnet::trace::chakra {
namespace {

TEST(ChakraNodeMemory, NodeIs96Bytes) {
  EXPECT_LE(sizeof(Node), 96u);
}

std::string long_name(int32_t r, uint64_t i) {
  return "rank " + std::to_string(r) + " node " + std::to_string(i) + std::string(i % 90, 'x');
}

// Ranks grown one by one (moved at every growth of the array), then the job moved: every name,
// group name and dependency list reads as it was set, from temporaries the store copied.
TEST(ChakraNodeMemory, ViewsSurviveMovingTheRank) {
  std::vector<Rank> ranks;
  for (int32_t r = 0; r < 10; ++r) {
    Rank rank;
    rank.rank = r;
    for (uint64_t i = 0; i < 1000; ++i) {
      Node n;
      n.id = i;
      rank.store.set_name(n, long_name(r, i));
      rank.store.set_pg_name(n, i % 2 == 0 ? "" : "group " + std::to_string(i % 3));
      rank.store.set_deps(n, std::vector<uint64_t>(i % 5, i), std::vector<uint64_t>(i % 3, i + 1));
      rank.nodes.push_back(n);
    }
    ranks.push_back(std::move(rank));
  }
  Job moved;
  moved.ranks = std::move(ranks);
  const Job job = std::move(moved);
  for (const Rank& rank : job.ranks) {
    ASSERT_EQ(rank.nodes.size(), 1000u);
    for (const Node& n : rank.nodes) {
      const uint64_t i = n.id;
      EXPECT_EQ(n.name(), long_name(rank.rank, i));
      EXPECT_EQ(n.pg_name(), i % 2 == 0 ? "" : "group " + std::to_string(i % 3));
      EXPECT_EQ(n.ctrl_deps(), Ids(std::vector<uint64_t>(i % 5, i)));
      EXPECT_EQ(n.data_deps(), Ids(std::vector<uint64_t>(i % 3, i + 1)));
    }
  }
}

// bench/chakra_dp_job.py's job on one rank: per iteration 8 layers' forward passes, then each
// layer's backward pass and all-reduce; the first forward pass after the last iteration's
// all-reduces. 300,000 nodes hold at most 128 B each (issue 29's bound at 10 M nodes).
TEST(ChakraNodeMemory, DataParallelJobHoldsAtMost128BytesPerNode) {
  constexpr uint64_t kIterations = 12500, kLayers = 8;
  std::string bytes = test::et_bytes({});
  uint64_t id = 0;
  std::vector<uint64_t> waits;
  const auto add = [&](pb::Node n, const std::string& name, const std::vector<uint64_t>& deps) {
    n.set_name(name);
    for (const uint64_t d : deps) n.add_data_deps(d);
    bytes += test::frame(n.SerializeAsString());
    return id++;
  };
  for (uint64_t it = 0; it < kIterations; ++it) {
    std::vector<uint64_t> previous = waits;
    const std::string suffix = std::to_string(it) + "_l";
    for (uint64_t l = 0; l < kLayers; ++l) {
      previous = {add(test::comp(id, 200), "fwd_it" + suffix + std::to_string(l), previous)};
    }
    std::vector<uint64_t> reduces;
    for (uint64_t l = kLayers; l-- > 0;) {
      previous = {add(test::comp(id, 400), "bwd_it" + suffix + std::to_string(l), previous)};
      reduces.push_back(add(test::coll(id, 0, 256 * 1024),
                            "allreduce_it" + suffix + std::to_string(l), previous));
    }
    waits = previous;
    waits.insert(waits.end(), reduces.begin(), reduces.end());
  }
  Job job;
  job.world = 1;
  job.ranks.resize(1);
  Diagnostics diag;
  ASSERT_TRUE(read_rank(bytes, "job.0.et", 0, job.ranks[0], diag)) << diag.report();
  ASSERT_EQ(job.ranks[0].nodes.size(), kIterations * kLayers * 3);
  const double per_node =
      static_cast<double>(model_bytes(job)) / static_cast<double>(job.ranks[0].nodes.size());
  EXPECT_LE(per_node, 128.0);
  EXPECT_EQ(job.ranks[0].nodes[24].data_deps().size(), 9u);  // the job's shape: 8 all-reduces
}

}  // namespace
}  // namespace dlcnet::trace::chakra
