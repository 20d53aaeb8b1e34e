// dlc-trace synth: valid, reproducible, and its statistics give back what was configured.
#include "trace/trace_synth.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "tests/trace/trace_test_util.hpp"
#include "trace/trace_sketch_writer.hpp"
#include "trace/trace_stats.hpp"

namespace dlcnet::trace {
namespace {

SynthConfig small_config() {
  SynthConfig c;
  c.workers = 3;
  c.servers = 2;
  c.iterations = 12;
  c.model = preset_model("lenet5");
  c.compute_s = 0.004;
  c.update_s = 80e-6;
  c.jitter = 0.05;
  c.seed = 42;
  return c;
}

TEST(Presets, PublishedSizes) {
  const ModelSpec lenet = preset_model("lenet5");
  ASSERT_EQ(lenet.params.size(), 8u);
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const ModelParam& p : lenet.params) {
    lo = std::min(lo, p.bytes);
    hi = std::max(hi, p.bytes);
  }
  EXPECT_EQ(lenet.meta_bytes, 73u);            // smallest message: 73 B
  EXPECT_EQ(hi + lenet.meta_bytes, 1600073u);  // largest: 1.6 MB
  EXPECT_EQ(lo, 40u);
  const ModelSpec resnet = preset_model("resnet50");
  ASSERT_EQ(resnet.params.size(), 157u);
  hi = 0;
  for (const ModelParam& p : resnet.params) hi = std::max(hi, p.bytes);
  EXPECT_EQ(resnet.meta_bytes, 47u);  // smallest message: 47 B
  EXPECT_EQ(hi, 9437184u);            // 512x512x3x3 floats: 9.44 MB
  EXPECT_THROW(preset_model("vgg"), Error);
  EXPECT_EQ(model_from_sizes("2000, 80,1K").params[2].bytes, 1024u);
}

TEST(Synth, WritesAValidJobAndStatsRecoverTheConfiguration) {
  const SynthConfig c = small_config();
  test::TempDir dir;
  const Job job = synthesize(c);
  EXPECT_EQ(job.record_count(), synth_record_count(c));
  write_sketch_job(job, dir.path());
  const LoadResult res = test::load(dir.path());
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  EXPECT_EQ(res.diagnostics.warnings(), 0u) << res.diagnostics.report();
  EXPECT_EQ(res.job.record_count(), job.record_count());
  EXPECT_EQ(res.job.messages.size(), job.messages.size());
  EXPECT_EQ(res.job.nodes[5].control.size(), 2u * (3 * 3 + 2 * 2));  // the scheduler's file

  const JobStats s = compute_stats(res.job);
  EXPECT_EQ(s.computation_s.count, 3u * 12);
  EXPECT_NEAR(s.computation_s.mean, c.compute_s, c.compute_s * 0.02);
  EXPECT_NEAR(s.update_s.mean, c.update_s, c.update_s * 0.05);
  // Half of the computation overlaps the pushes (--overlap 0.5).
  EXPECT_NEAR(s.nodes[0].phase2_s.mean / s.nodes[0].computation_s.mean, 0.5, 0.02);
  ASSERT_EQ(s.keys.size(), 8u);
  for (size_t k = 0; k < 8; ++k) {
    EXPECT_EQ(s.keys[k].push_bytes_max, c.model.params[k].bytes + 73) << k;
    EXPECT_EQ(s.keys[k].pull_bytes_min, c.model.params[k].bytes + 73) << k;
  }
  EXPECT_EQ(s.sizes.min, 73u);
  EXPECT_EQ(s.sizes.max, 1600073u);
}

// --overlap F is phase 2 / computation (the generator spreads the pushes over the last F of
// the computation C), while stats' overlap is SketchDLC's phase 2 / iteration time: stats reads
// F x computation / iter_time, below F by the share of the iteration after the last push. Both
// within the rounding of phase 1 to the capture's microsecond.
TEST(Synth, OverlapIsAShareOfTheComputationAndStatsDividesByTheIteration) {
  for (const double f : {0.3, 0.8}) {
    SynthConfig c = small_config();
    c.overlap = f;
    const JobStats s = compute_stats(synthesize(c));
    size_t checked = 0;
    for (const NodeStats& ns : s.nodes) {
      for (const WorkerIteration& w : ns.worker_iterations) {
        if (!w.complete) continue;
        ++checked;
        const double rounding = 1e-6;  // phase 1 = C x (1 - F), rounded to 1 us
        EXPECT_NEAR(w.phase2_s / w.computation_s, f, rounding / w.computation_s) << ns.name;
        EXPECT_NEAR(w.overlap_ratio, f * w.computation_s / w.total_s, rounding / w.total_s)
            << ns.name << " iteration " << w.iteration;
        EXPECT_LT(w.overlap_ratio, f);  // the pulls after the last push are not overlapped
      }
    }
    EXPECT_EQ(checked, 3u * 12) << f;
  }
}

TEST(Synth, SameSeedSameFilesOtherSeedOtherTimes) {
  SynthConfig c = small_config();
  c.iterations = 3;
  test::TempDir a, b, d;
  write_sketch_job(synthesize(c), a.path());
  write_sketch_job(synthesize(c), b.path());
  c.seed = 43;
  write_sketch_job(synthesize(c), d.path());
  const std::string f = "/worker1/trace_record.txt";
  EXPECT_EQ(test::read_file(a.path() + f), test::read_file(b.path() + f));
  EXPECT_NE(test::read_file(a.path() + f), test::read_file(d.path() + f));
}

TEST(Synth, SplitKeysGiveOneToManyListsOnWorkers) {
  SynthConfig c = small_config();
  c.iterations = 2;
  c.split_above = 50'000;  // conv2 (100 KB) and fc1 (1.6 MB) over both servers
  test::TempDir dir;
  write_sketch_job(synthesize(c), dir.path());
  const LoadResult res = test::load(dir.path());
  ASSERT_TRUE(res.ok()) << res.diagnostics.report();
  EXPECT_EQ(res.diagnostics.warnings(), 0u);
  const Node& w2 = res.job.nodes[2];
  size_t two = 0;
  for (uint32_t i = 0; i < w2.records.size(); ++i) {
    if (w2.records[i].op == Op::kPushSendWorker && w2.deps_of(i).size() == 2) ++two;
  }
  EXPECT_EQ(two, 2u * 2 * 2);  // 2 keys x 2 slices x 2 iterations
  const std::string text = test::read_file(dir / "worker2/trace_record.txt");
  EXPECT_NE(text.find("\t(5-s0,5-s1,)\n"), std::string::npos);
}

TEST(Synth, RejectsImpossibleConfigurations) {
  SynthConfig c = small_config();
  c.workers = 0;
  EXPECT_THROW(synthesize(c), Error);
  c = small_config();
  c.overlap = 1.5;
  EXPECT_THROW(check_config(c), Error);
}

}  // namespace
}  // namespace dlcnet::trace
