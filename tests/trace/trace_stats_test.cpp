// The paper's overheads on the hand-written job, whose times were chosen by hand: worker
// iterations start 500 us after the last pull reply, push for 20 us; servers update a key
// 40 us after its last push and answer a pull in 3 us.
#include "trace/trace_stats.hpp"

#include <gtest/gtest.h>

#include "tests/trace/trace_test_util.hpp"
#include "trace/trace_stats_report.hpp"

namespace dlcnet::trace {
namespace {

constexpr double kUs = 1e-6;

class BasicStats : public ::testing::Test {
 protected:
  void SetUp() override {
    const LoadResult res = test::load(test::data("basic"));
    ASSERT_TRUE(res.ok());
    stats_ = compute_stats(res.job);
  }
  JobStats stats_;
};

TEST_F(BasicStats, WorkerPhases) {
  ASSERT_EQ(stats_.nodes.size(), 3u);
  const NodeStats& w0 = stats_.nodes[0];
  ASSERT_EQ(w0.worker_iterations.size(), 2u);
  const WorkerIteration& it = w0.worker_iterations[0];
  EXPECT_TRUE(it.complete);
  EXPECT_NEAR(it.phase1_s, 500 * kUs, 1e-12);  // 2086 -> 2586
  EXPECT_NEAR(it.phase2_s, 20 * kUs, 1e-12);   // 2586 -> 2606
  EXPECT_NEAR(it.phase3_s, 174 * kUs, 1e-12);  // 2586 -> 2760
  EXPECT_NEAR(it.computation_s, 520 * kUs, 1e-12);
  EXPECT_NEAR(it.total_s, 674 * kUs, 1e-12);
  EXPECT_NEAR(it.overlap_ratio, 20.0 / 674.0, 1e-12);
  EXPECT_NEAR(it.wait_s, 28 * kUs, 1e-12);  // 2732 -> 2760
  EXPECT_EQ(it.ops[static_cast<size_t>(Op::kPushSendWorker)].messages, 2u);
  EXPECT_EQ(it.ops[static_cast<size_t>(Op::kPushSendWorker)].bytes, 4060u + 140u);
  EXPECT_EQ(w0.computation_s.count, 2u);
  EXPECT_NEAR(stats_.computation_s.mean, (520 + 520 + 557 + 557) / 4.0 * kUs, 1e-12);
}

TEST_F(BasicStats, ServerOverheads) {
  const NodeStats& s0 = stats_.nodes[2];
  ASSERT_EQ(s0.server_iterations.size(), 2u);
  const ServerIteration& it = s0.server_iterations[0];
  EXPECT_TRUE(it.complete);
  EXPECT_NEAR(it.sync_s, 65 * kUs, 1e-12);  // first to last push received: 802601 -> 802666
  EXPECT_EQ(it.update_keys, 2u);
  EXPECT_NEAR(it.update_mean_s, 40 * kUs, 1e-12);
  EXPECT_NEAR(it.update_max_s, 40 * kUs, 1e-12);
  EXPECT_NEAR(it.search_mean_s, 3 * kUs, 1e-12);
}

TEST_F(BasicStats, CountsSizesAndKeys) {
  EXPECT_EQ(stats_.records, 92u);
  EXPECT_EQ(stats_.messages, 46u);
  EXPECT_EQ(stats_.iterations, 2);
  EXPECT_EQ(stats_.sizes.count, 46u);
  EXPECT_EQ(stats_.sizes.min, 40u);  // the server's reply to a command
  EXPECT_EQ(stats_.sizes.max, 4060u);
  EXPECT_EQ(stats_.ops[static_cast<size_t>(Op::kPullRecvWorker)].messages, 12u);
  ASSERT_EQ(stats_.keys.size(), 2u);
  const KeyStats& k0 = stats_.keys[0];
  EXPECT_EQ(k0.push_messages, 4u);  // 2 workers x 2 iterations
  EXPECT_EQ(k0.push_bytes_max, 4060u);
  EXPECT_EQ(k0.pull_bytes_min, 4060u);
  EXPECT_EQ(k0.pull_rtt_s.count, 4u);
  EXPECT_NEAR(k0.pull_rtt_s.max, 37 * kUs, 1e-12);
}

TEST(SizeDistribution, NearestRankAndLog2Buckets) {
  std::vector<uint64_t> v;
  for (uint64_t i = 1; i <= 100; ++i) v.push_back(i);
  const SizeDistribution d = size_distribution(v);
  EXPECT_EQ(d.min, 1u);
  EXPECT_EQ(d.p50, 50u);
  EXPECT_EQ(d.p90, 90u);
  EXPECT_EQ(d.p99, 99u);
  EXPECT_EQ(d.max, 100u);
  EXPECT_DOUBLE_EQ(d.mean, 50.5);
  ASSERT_EQ(d.log2_buckets.size(), 7u);  // [64, 128) holds 64..100
  EXPECT_EQ(d.log2_buckets[0], 1u);      // 1
  EXPECT_EQ(d.log2_buckets[6], 37u);
  EXPECT_EQ(size_distribution({}).count, 0u);
}

TEST_F(BasicStats, JsonCarriesEveryNodeAndIteration) {
  const nlohmann::json j = stats_to_json(stats_);
  ASSERT_EQ(j["nodes"].size(), 3u);
  EXPECT_EQ(j["nodes"][0]["iterations"].size(), 2u);
  EXPECT_NEAR(j["nodes"][0]["iterations"][0]["computation_s"].get<double>(), 520e-6, 1e-12);
  EXPECT_EQ(j["nodes"][0]["by_operation"]["Push_Send_Worker"]["messages"], 6);
  EXPECT_EQ(j["message_sizes"]["max"], 4060);
  EXPECT_NEAR(j["summary"]["update_s"]["mean"].get<double>(), 40e-6, 1e-12);
  std::ostringstream out;
  print_stats(out, stats_, {});
  EXPECT_THAT(out.str(), ::testing::HasSubstr("Worker overheads"));
}

}  // namespace
}  // namespace dlcnet::trace
