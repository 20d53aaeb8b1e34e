// The fan-in's analysis on synthetic times whose answer is known: a bottleneck of 1 byte/us
// with a 100 us base latency, bursts of 4 x 1000 B.
#include "patterns/fanin/fanin_analysis.hpp"

#include <gtest/gtest.h>

#include "patterns/fanin/fanin_report.hpp"

namespace dlcnet::fanin {
namespace {

constexpr int64_t kUs = 1000;
constexpr int64_t kBase = 100 * kUs;
constexpr int64_t kPerMessage = 1000 * kUs;  // 1000 B at 1 B/us

struct SyntheticRun {
  FaninSpec spec;
  std::vector<Round> rounds;
  ServerTimes server;
  std::vector<std::vector<WorkerRound>> workers;
  std::vector<ClockModel> clocks;
};

// Two workers; worker 2's clock reads 5 ms ahead of rank 0's. Solo rounds: one burst at a
// time, messages one after another. Incast round: both bursts interleaved on the bottleneck,
// worker 2's message k right after worker 1's.
SyntheticRun two_workers() {
  SyntheticRun r;
  r.spec.burst = {1000, 1000, 1000, 1000};
  r.spec.solo = 1;
  r.spec.warmup = 0;
  r.spec.iterations = 1;
  r.rounds = schedule(r.spec, 2);
  r.workers.resize(2);
  r.clocks.resize(3);
  r.clocks[2].offset_ns = 5'000'000;
  r.clocks[2].uncertainty_ns = 2000;
  const int64_t t0 = 1'000'000'000;
  for (uint32_t i = 0; i < r.rounds.size(); ++i) {
    ServerRound sr;
    sr.arrival_ns.resize(2);
    sr.pull_post_ns.resize(2);
    const int64_t start = t0 + i * 100'000'000;
    const bool incast = r.rounds[i].kind == RoundKind::incast;
    for (int w = 1; w <= 2; ++w) {
      if (!takes_part(r.rounds[i], w)) continue;
      WorkerRound wr;
      wr.round = i;
      for (size_t k = 0; k < 4; ++k) {
        const int64_t slot =
            incast ? static_cast<int64_t>(2 * k) + (w - 1) : static_cast<int64_t>(k);
        wr.post_ns.push_back(start + (w == 2 ? 5'000'000 : 0));
        wr.complete_ns.push_back(0);
        sr.arrival_ns[static_cast<size_t>(w - 1)].push_back(start + kBase +
                                                            (slot + 1) * kPerMessage);
      }
      r.workers[static_cast<size_t>(w - 1)].push_back(wr);
    }
    r.server.rounds.push_back(sr);
  }
  return r;
}

TEST(FaninMetrics, SoloRoundsGiveTheRateAndTheBase) {
  SyntheticRun r = two_workers();
  const Analysis a = analyse(r.spec, r.rounds, r.server, r.workers, {}, r.clocks);
  EXPECT_EQ(a.solo.rounds, 2u);
  EXPECT_NEAR(a.solo.rate_Bps, 1e6, 1);
  EXPECT_NEAR(a.solo.base_ns, static_cast<double>(kBase), 1);
  EXPECT_NEAR(a.solo.min_latency_ns[3], static_cast<double>(kBase + 4 * kPerMessage), 1);
}

TEST(FaninMetrics, AnIncastAtTheLimitHasRatioOneAndFairShares) {
  SyntheticRun r = two_workers();
  const Analysis a = analyse(r.spec, r.rounds, r.server, r.workers, {}, r.clocks);
  ASSERT_EQ(a.iterations.size(), 1u);
  const Iteration& it = a.iterations[0];
  EXPECT_EQ(it.workers, 2);
  EXPECT_EQ(it.bytes, 8000u);
  EXPECT_NEAR(it.bct_ns, static_cast<double>(kBase + 8 * kPerMessage), 1);
  EXPECT_NEAR(it.bct_ns / it.limit_ns, 1.0, 1e-9);
  EXPECT_NEAR(it.skew_ns, 0, 1);  // worker 2's 5 ms clock offset undone
  EXPECT_EQ(it.bound_ns, 2000);
  EXPECT_GT(it.jain, 0.95);
  // Worker 1's message 0 goes first and waits for nothing: slowdown 1, no queue; worker 2's
  // last message waits behind 7 messages of the solo's 4: (0.1 + 8) / (0.1 + 4) ms.
  EXPECT_NEAR(it.slowdown.min, 1.0, 1e-9);
  EXPECT_NEAR(it.slowdown.max, 8.1 / 4.1, 1e-6);
  EXPECT_NEAR(it.queue_start_bytes, 0, 1);
  EXPECT_NEAR(it.queue_peak_bytes, 4000, 1);
  EXPECT_EQ(a.flows.size(), 16u);  // 2 solo bursts + 2 incast bursts of 4
}

TEST(FaninMetrics, AnUnfairIncastLowersJain) {
  SyntheticRun r = two_workers();
  // Worker 2's burst all goes after worker 1's.
  ServerRound& sr = r.server.rounds.back();
  for (size_t k = 0; k < 4; ++k) {
    sr.arrival_ns[0][k] =
        sr.arrival_ns[0][0] - kPerMessage + static_cast<int64_t>(k + 1) * kPerMessage;
    sr.arrival_ns[1][k] =
        sr.arrival_ns[0][0] - kPerMessage + static_cast<int64_t>(k + 5) * kPerMessage;
  }
  const Analysis a = analyse(r.spec, r.rounds, r.server, r.workers, {}, r.clocks);
  // Goodputs 4000 B / 4.1 ms and 4000 B / 8.1 ms: Jain = (1 + r)^2 / (2 (1 + r^2)), r = 4.1/8.1.
  const double r2 = 4.1 / 8.1;
  EXPECT_NEAR(a.iterations[0].jain, (1 + r2) * (1 + r2) / (2 * (1 + r2 * r2)), 1e-6);
  EXPECT_LT(a.iterations[0].jain, 0.91);
  EXPECT_NEAR(a.iterations[0].bct_ns / a.iterations[0].limit_ns, 1.0, 1e-9);
}

TEST(FaninMetrics, JainIndex) {
  EXPECT_DOUBLE_EQ(jain_index({1, 1, 1, 1}), 1.0);
  EXPECT_DOUBLE_EQ(jain_index({1, 0, 0, 0}), 0.25);
  EXPECT_DOUBLE_EQ(jain_index({}), 0.0);
}

TEST(FaninMetrics, SummaryTakesTheIncastIterationsOnly) {
  SyntheticRun r = two_workers();
  r.spec.warmup = 1;
  const Analysis a = analyse(r.spec, r.rounds, r.server, r.workers, {}, r.clocks);
  const Summary s = summarise(a);
  EXPECT_EQ(s.iterations, 1u);
  EXPECT_EQ(s.bound_ns, 2000);  // worker 2's clock bound
  EXPECT_NEAR(s.bct_over_limit, 1.0, 1e-9);
  EXPECT_EQ(s.latency.count, 8u);
}

TEST(FaninSpec, ScheduleSoloThenWarmupThenIncast) {
  FaninSpec s;
  s.burst = {10};
  s.solo = 2;
  s.warmup = 1;
  s.iterations = 3;
  const std::vector<Round> r = schedule(s, 2);
  ASSERT_EQ(r.size(), 8u);
  EXPECT_EQ(r[0].solo_worker, 1);
  EXPECT_EQ(r[2].solo_worker, 2);
  EXPECT_EQ(r[4].kind, RoundKind::warmup);
  EXPECT_EQ(r[7].kind, RoundKind::incast);
  EXPECT_TRUE(takes_part(r[5], 2));
  EXPECT_FALSE(takes_part(r[0], 2));
  FaninSpec t = s;
  t.pull = true;
  EXPECT_NE(s.fingerprint(), t.fingerprint());
}

}  // namespace
}  // namespace dlcnet::fanin
