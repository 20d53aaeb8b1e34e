// The plan is where both ends of every channel must agree without talking: these tests build
// every rank's plan of a job and check that each channel's sender and receiver see the same
// messages in the same order, for cut and looped iterations alike.
#include "replay/replay_plan.hpp"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "core/error.hpp"
#include "trace/trace_loader.hpp"
#include "trace/trace_synth.hpp"

namespace dlcnet::replay {
namespace {

trace::Job load(const std::string& dir) {
  const std::vector<std::string> in = {dir};
  return trace::read_job(in);
}

trace::Job lenet(uint16_t workers, uint16_t servers, uint32_t iterations, uint64_t split = 0) {
  trace::SynthConfig c;
  c.workers = workers;
  c.servers = servers;
  c.iterations = iterations;
  c.model = trace::preset_model("lenet5");
  c.split_above = split;
  return trace::synthesize(c);
}

std::vector<RankPlan> all_plans(const trace::Job& job, const PlanOptions& o,
                                const std::string& map_spec = "") {
  const RankMap map = RankMap::make(job, map_spec);
  const Copies copies = Copies::make(job, o.iterations);
  std::vector<RankPlan> plans;
  for (int r = 0; r < map.world_size(); ++r)
    plans.push_back(build_rank_plan(job, map, r, o, copies));
  return plans;
}

// Both ends of every channel agree message by message; returns the messages replayed.
size_t check_channels(const std::vector<RankPlan>& plans) {
  size_t messages = 0;
  std::set<std::tuple<int, int, int32_t, int32_t>> names;
  for (const RankPlan& s : plans) {
    for (size_t r = 0; r < plans.size(); ++r) {
      const auto& out = s.sends_to[r];
      const auto& in = plans[r].recvs_from[static_cast<size_t>(s.rank)];
      EXPECT_EQ(out.size(), in.size()) << "channel " << s.rank << " -> " << r;
      for (size_t k = 0; k < std::min(out.size(), in.size()); ++k) {
        const PlanEntry& a = s.entries[out[k]];
        const PlanEntry& b = plans[r].entries[in[k]];
        EXPECT_TRUE(a.send && !b.send);
        EXPECT_TRUE(a.replayable && b.replayable);
        EXPECT_EQ(a.bytes, b.bytes) << s.rank << "->" << r << " #" << k;
        EXPECT_EQ(a.parts, b.parts);
        EXPECT_EQ(a.key, b.key);
        EXPECT_EQ(a.msg_opnum, b.msg_opnum) << s.rank << "->" << r << " #" << k;
        EXPECT_EQ(a.channel_pos, k);
        EXPECT_EQ(b.channel_pos, k);
        EXPECT_EQ(a.peer, static_cast<int>(r));
        EXPECT_EQ(b.peer, s.rank);
        EXPECT_TRUE(names.emplace(s.rank, static_cast<int>(r), a.key, a.msg_opnum).second)
            << "message named twice: " << s.rank << "->" << r << " key " << a.key << " opnum "
            << a.msg_opnum;
        ++messages;
      }
    }
  }
  return messages;
}

void check_dependencies(const RankPlan& p) {
  const auto n = static_cast<uint32_t>(p.entries.size());
  size_t edges = 0;
  for (uint32_t e = 0; e < n; ++e) {
    for (uint32_t d : p.timeline.deps_of(e)) {
      ASSERT_LT(d, n);
      const auto dep = p.dependents_of(d);
      EXPECT_NE(std::find(dep.begin(), dep.end(), e), dep.end());
      ++edges;
    }
  }
  EXPECT_EQ(edges, p.dependents.size());
}

TEST(ReplayPlan, ChannelsAgreeOnCapturedJobs) {
  for (const char* dir : {"tests/data/trace/basic", "tests/data/trace/two_servers"}) {
    SCOPED_TRACE(dir);
    const trace::Job job = load(dir);
    const auto plans = all_plans(job, {});
    size_t matched = 0;
    for (const auto& m : job.messages) {
      if (m.sender_record != trace::kNone && m.receiver_record != trace::kNone) ++matched;
    }
    EXPECT_EQ(check_channels(plans), matched);
    for (const auto& p : plans) check_dependencies(p);
  }
}

TEST(ReplayPlan, EveryMessageOnceForCutAndLoopedIterations) {
  const trace::Job job = lenet(2, 2, 3, 100000);
  const size_t all = job.messages.size();
  PlanOptions o;
  o.iterations = 3;
  const size_t full = check_channels(all_plans(job, o));
  EXPECT_EQ(full, all);
  o.iterations = 1;
  const size_t one = check_channels(all_plans(job, o));
  EXPECT_LT(one, full);
  o.iterations = 2;
  const size_t two = check_channels(all_plans(job, o));
  const size_t per_iteration = two - one;
  EXPECT_GT(per_iteration, 0u);
  EXPECT_EQ(full, one + 2 * per_iteration);
  // Looped: 7 iterations of a 3-iteration trace is copies of 3 + 3 + 1.
  o.iterations = 7;
  const auto looped = all_plans(job, o);
  EXPECT_EQ(check_channels(looped), one + 6 * per_iteration);
  for (const auto& p : looped) check_dependencies(p);
  const Copies c = Copies::make(job, 7);
  EXPECT_EQ(c.count, 3u);
  EXPECT_EQ(c.trace_iterations, 3);
  int32_t top = 0;
  for (const auto& te : looped[0].timeline.entries) top = std::max(top, te.iteration);
  EXPECT_EQ(top, 7);
}

TEST(ReplayPlan, LoopedFirstIterationDependsOnThePreviousCopy) {
  const trace::Job job = lenet(2, 1, 2);
  PlanOptions o;
  o.iterations = 4;
  const auto plans = all_plans(job, o);
  const RankPlan& w0 = plans[0];
  const trace::Node& node = job.nodes[0];
  for (uint32_t e = 0; e < w0.entries.size(); ++e) {
    const TimelineEntry& te = w0.timeline.entries[e];
    const trace::Record& r = node.records[te.record];
    if (r.op != trace::Op::kPushSendWorker || te.iteration != 3) continue;
    // Iteration 3 = copy 1's first: its pushes wait for iteration 2's pull replies.
    const auto deps = w0.timeline.deps_of(e);
    ASSERT_FALSE(deps.empty());
    for (uint32_t d : deps) {
      EXPECT_EQ(w0.timeline.entries[d].iteration, 2);
      EXPECT_EQ(node.records[w0.timeline.entries[d].record].op, trace::Op::kPullRecvWorker);
    }
  }
}

TEST(ReplayPlan, ShutdownCommandsFollowTheRecordBeforeThem) {
  const trace::Job job = lenet(2, 1, 2);
  const auto plans = all_plans(job, {});
  const RankPlan& w0 = plans[0];
  const trace::Node& node = job.nodes[0];
  const uint32_t last = static_cast<uint32_t>(w0.entries.size()) - 1;
  ASSERT_FALSE(node.records[w0.timeline.entries[last].record].is_data());
  const auto deps = w0.timeline.deps_of(last);
  ASSERT_EQ(deps.size(), 1u);
  EXPECT_EQ(deps[0], last - 1);
  // The very first record has nothing before it.
  EXPECT_TRUE(w0.timeline.deps_of(0).empty());
}

TEST(ReplayPlan, ThinkTimesFollowTheMode) {
  const trace::Job job = lenet(2, 1, 2);
  PlanOptions o;
  o.time_scale = 0.5;
  const auto dag = all_plans(job, o);
  o.mode = Mode::asap;
  const auto asap = all_plans(job, o);
  o.mode = Mode::timed;
  const auto timed = all_plans(job, o);
  const trace::Node& node = job.nodes[0];
  bool some_think = false;
  for (size_t e = 0; e < dag[0].entries.size(); ++e) {
    const trace::Record& r = node.records[dag[0].timeline.entries[e].record];
    EXPECT_EQ(dag[0].entries[e].think_ns, std::llround(static_cast<double>(r.dtime_ns) * 0.5));
    EXPECT_EQ(asap[0].entries[e].think_ns, 0);
    some_think = some_think || dag[0].entries[e].think_ns > 0;
    EXPECT_GE(timed[0].entries[e].timed_ns, 0);
  }
  EXPECT_TRUE(some_think);
}

TEST(ReplayPlan, LargeMessagesSplitIntoParts) {
  const trace::Job job = lenet(2, 1, 1);
  PlanOptions o;
  o.part_bytes = 100000;
  const auto plans = all_plans(job, o);
  check_channels(plans);
  uint64_t split = 0;
  for (const auto& p : plans) {
    EXPECT_EQ(p.region_bytes, 100000u);
    for (const auto& e : p.entries) {
      EXPECT_EQ(e.parts, (e.bytes + 99999) / 100000 > 1 ? (e.bytes + 99999) / 100000 : 1);
    }
    split += p.split_messages;
  }
  EXPECT_GT(split, 0u);
}

TEST(ReplayPlan, PeersAreSymmetricAndIncludeRankZero) {
  const trace::Job job = lenet(3, 2, 1);
  const auto plans = all_plans(job, {});
  for (const auto& p : plans) {
    for (int q : p.peers) {
      const auto& back = plans[static_cast<size_t>(q)].peers;
      EXPECT_NE(std::find(back.begin(), back.end(), p.rank), back.end()) << p.rank << " " << q;
    }
    if (p.rank != 0) {
      EXPECT_EQ(p.peers.front(), 0);
    }
  }
  EXPECT_EQ(plans[0].peers.size(), plans.size() - 1);
}

TEST(ReplayPlan, FingerprintCoversOptions) {
  const trace::Job job = lenet(2, 1, 2);
  const RankMap map = RankMap::make(job, "");
  PlanOptions o;
  const Copies c = Copies::make(job, 0);
  const uint64_t base = plan_fingerprint(job, map, o, c);
  EXPECT_EQ(base, plan_fingerprint(job, map, o, c));
  PlanOptions w = o;
  w.transfer = Transfer::write;
  EXPECT_NE(base, plan_fingerprint(job, map, w, c));
  EXPECT_NE(base, plan_fingerprint(job, map, o, Copies::make(job, 1)));
  EXPECT_NE(base, plan_fingerprint(job, RankMap::make(job, "server0=0"), o, c));
}

TEST(RankMap, DefaultAndOverrides) {
  const trace::Job job = lenet(2, 1, 1);
  const RankMap d = RankMap::make(job, "");
  EXPECT_EQ(d.world_size(), 3);
  EXPECT_EQ(d.rank_of(0), 0);
  EXPECT_EQ(d.rank_of(2), 2);
  EXPECT_EQ(d.rank_of(job.scheduler_rank()), -1);
  EXPECT_EQ(d.describe(job), "rank 0 = worker0, rank 1 = worker1, rank 2 = server0");
  const RankMap m = RankMap::make(job, "server0=0");
  EXPECT_EQ(m.node_of(0), 2);
  EXPECT_EQ(m.node_of(1), 0);
  EXPECT_EQ(m.node_of(2), 1);
  const RankMap n = RankMap::make(job, "2=1,worker1=0");
  EXPECT_EQ(n.node_of(1), 2);
  EXPECT_EQ(n.node_of(0), 1);
  EXPECT_THROW(RankMap::make(job, "server1=0"), Error);
  EXPECT_THROW(RankMap::make(job, "server0=3"), Error);
  EXPECT_THROW(RankMap::make(job, "server0=0,worker0=0"), Error);
  EXPECT_THROW(RankMap::make(job, "scheduler=0"), Error);
  EXPECT_THROW(RankMap::make(job, "server0"), Error);
}

}  // namespace
}  // namespace dlcnet::replay
