// The fidelity verdict (replay/replay_analysis.hpp): a pure function of the replay's scheduling
// error and the trace's think times, and its console lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "replay/replay_analysis.hpp"
#include "replay/replay_report.hpp"
#include "trace/trace_synth.hpp"

namespace dlcnet::replay {
namespace {

constexpr double kUs = 1e-6;

TEST(Fidelity, ReliableWhenTheP99ErrorIsWellBelowTheMedianThinkTime) {
  // 500 us think times, p99 error 20 us: 4 % of them, under the 10 % threshold (50 us).
  const Fidelity f = judge_fidelity(20 * kUs, 500 * kUs, 1000, Mode::dag);
  EXPECT_EQ(f.verdict, "reliable");
  EXPECT_NEAR(f.threshold_s, 50 * kUs, 1e-12);
  EXPECT_TRUE(f.unreliable_figures.empty());
  EXPECT_NE(f.reason.find("20.0 us < 10 % of the trace's median think time 500.0 us"),
            std::string::npos)
      << f.reason;
}

TEST(Fidelity, UnreliableWhenTheErrorIsNotClearlyBelowTheThinkTimes) {
  // This host's replay of LeNet-5 (docs/replay.md): p99 140 us against 40 us think times.
  const Fidelity f = judge_fidelity(140 * kUs, 40 * kUs, 1332, Mode::dag);
  EXPECT_EQ(f.verdict, "unreliable");
  EXPECT_NE(f.reason.find(">="), std::string::npos) << f.reason;
  const std::vector<std::string> expected{"iter_time", "computation", "communication", "overlap",
                                          "wait",      "sync",        "update",        "search"};
  EXPECT_EQ(f.unreliable_figures, expected);
  // Either side of the threshold (10 % of 500 us = 50 us).
  EXPECT_EQ(judge_fidelity(50.1 * kUs, 500 * kUs, 10, Mode::timed).verdict, "unreliable");
  EXPECT_EQ(judge_fidelity(49.9 * kUs, 500 * kUs, 10, Mode::timed).verdict, "reliable");
}

TEST(Fidelity, NoThinkTimesIsSaidAsSuch) {
  const Fidelity asap = judge_fidelity(30 * kUs, 0, 0, Mode::asap);
  EXPECT_EQ(asap.verdict, "no_think_times");
  EXPECT_NE(asap.reason.find("mode asap"), std::string::npos) << asap.reason;
  EXPECT_TRUE(asap.unreliable_figures.empty());
  const Fidelity zero = judge_fidelity(30 * kUs, 0, 0, Mode::dag);
  EXPECT_EQ(zero.verdict, "no_think_times");
  EXPECT_NE(zero.reason.find("every dTime is 0"), std::string::npos) << zero.reason;
  // A Chakra job says it in its own words: compute nodes, not dTimes.
  const Fidelity chakra = judge_fidelity(30 * kUs, 0, 0, Mode::dag, JobKind::chakra);
  EXPECT_NE(chakra.reason.find("compute nodes take no time"), std::string::npos) << chakra.reason;
  EXPECT_EQ(chakra.reason.find("dTime"), std::string::npos) << chakra.reason;
  const Fidelity late = judge_fidelity(140 * kUs, 40 * kUs, 10, Mode::dag, JobKind::chakra);
  EXPECT_EQ(late.verdict, "unreliable");
  EXPECT_NE(late.reason.find("median compute duration"), std::string::npos) << late.reason;
  EXPECT_EQ(late.unreliable_figures.front(), "per-rank replay");
}

TEST(Fidelity, ConsoleWarnsAndNamesTheFiguresOnlyWhenUnreliable) {
  std::ostringstream bad, good;
  print_fidelity_verdict(bad, judge_fidelity(140 * kUs, 40 * kUs, 1332, Mode::dag));
  EXPECT_NE(bad.str().find("# fidelity: unreliable: "), std::string::npos) << bad.str();
  EXPECT_NE(bad.str().find("# WARNING: the replay's iter_time, computation, communication, "
                           "overlap, wait, sync, update, search are unreliable"),
            std::string::npos)
      << bad.str();
  print_fidelity_verdict(good, judge_fidelity(2 * kUs, 40 * kUs, 1332, Mode::dag));
  EXPECT_NE(good.str().find("# fidelity: reliable: "), std::string::npos) << good.str();
  EXPECT_EQ(good.str().find("WARNING"), std::string::npos) << good.str();
}

TEST(Fidelity, ThinkTimesFollowTheMode) {
  trace::SynthConfig c;  // 2 workers, 1 server, 10 iterations of LeNet-5
  c.model = trace::preset_model("lenet5");
  c.jitter = 0;
  const trace::Job job = trace::synthesize(c);
  PlanOptions o;
  o.mode = Mode::asap;
  EXPECT_TRUE(think_times_s(job, o).empty());
  o.mode = Mode::dag;
  const std::vector<double> dag = think_times_s(job, o);
  ASSERT_FALSE(dag.empty());
  for (const double t : dag) EXPECT_GT(t, 0);
  // The servers' search time (5 us) is one of them.
  EXPECT_TRUE(
      std::any_of(dag.begin(), dag.end(), [](double t) { return std::abs(t - 5 * kUs) < 1e-12; }));
  o.time_scale = 2;
  const std::vector<double> twice = think_times_s(job, o);
  ASSERT_EQ(twice.size(), dag.size());
  EXPECT_DOUBLE_EQ(twice[0], 2 * dag[0]);
  o.mode = Mode::timed;
  EXPECT_FALSE(think_times_s(job, o).empty());
}

}  // namespace
}  // namespace dlcnet::replay
