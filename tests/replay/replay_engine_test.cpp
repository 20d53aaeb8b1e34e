// The engine end to end inside one process: one thread per rank, each with its own UCX
// transport (tcp or shared memory) and the in-process bootstrap. Checks what the replay
// promises: every message once, with its size, never before its dependencies and think time.
#include "replay/replay_engine.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "core/clock.hpp"
#include "core/clock_sync.hpp"
#include "core/inprocess_bootstrap.hpp"
#include "trace/trace_synth.hpp"
#include "ucx/ucx_transport.hpp"

namespace dlcnet::replay {
namespace {

struct Case {
  const char* name;
  const char* tls;
  Mode mode;
  Transfer transfer;
  uint64_t part_bytes;
  uint32_t iterations;
  Idle idle = Idle::yield;  // yield: three spinning threads on a small machine
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

trace::Job small_job() {
  trace::SynthConfig c;
  c.workers = 2;
  c.servers = 1;
  c.iterations = 2;
  c.model = trace::preset_model("lenet5");
  c.compute_s = 0.002;  // keep the test short
  return trace::synthesize(c);
}

struct RankOutcome {
  RankPlan plan;
  EngineResult result;
  std::string error;
};

std::vector<RankOutcome> replay(const trace::Job& job, const Case& c) {
  const RankMap map = RankMap::make(job, "");
  PlanOptions o;
  o.mode = c.mode;
  o.transfer = c.transfer;
  o.part_bytes = c.part_bytes;
  o.iterations = c.iterations;
  o.time_scale = 0.25;
  const Copies copies = Copies::make(job, o.iterations);
  const int n = map.world_size();
  auto boots = make_inprocess_group(n, std::chrono::seconds(60));
  std::vector<RankOutcome> out(static_cast<size_t>(n));
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      RankOutcome& me = out[static_cast<size_t>(r)];
      try {
        Bootstrap& boot = *boots[static_cast<size_t>(r)];
        me.plan = build_rank_plan(job, map, r, o, copies);
        std::vector<uint8_t> buf(me.plan.region_bytes);  // outlives the transport
        TransportOptions t;
        t.ucx_tls = c.tls;
        t.wakeup = c.idle == Idle::block;
        auto tr = make_ucx_transport(t);
        const RegionId region = tr->register_memory(buf.data(), buf.size());
        tr->connect(boot, me.plan.peers);
        measure_offsets(*tr, boot, region, 4, std::chrono::seconds(20), Idle::yield);
        EngineConfig ec;
        ec.transfer = c.transfer;
        ec.progress_timeout = std::chrono::seconds(20);
        ec.idle = c.idle;
        Engine engine(me.plan, *tr, boot, region, ec);
        engine.prepare();
        boot.barrier();
        me.result = engine.run(now_ns());
        boot.barrier();
      } catch (const std::exception& e) {
        me.error = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  return out;
}

class EngineTest : public ::testing::TestWithParam<Case> {};

TEST_P(EngineTest, EveryMessageOnceInDependencyOrder) {
  const Case& c = GetParam();
  const trace::Job job = small_job();
  const auto ranks = replay(job, c);
  for (const auto& r : ranks) ASSERT_EQ(r.error, "") << "rank " << r.plan.rank;
  for (const auto& r : ranks) {
    const RankPlan& p = r.plan;
    const EngineResult& res = r.result;
    EXPECT_EQ(res.wrong, 0u);
    EXPECT_EQ(res.sched_error_s.size(), p.sends);
    for (uint32_t e = 0; e < p.entries.size(); ++e) {
      const PlanEntry& pe = p.entries[e];
      const EntryTimes& t = res.times[e];
      if (!pe.replayable) continue;
      if (pe.send) {
        ASSERT_GE(t.post_ns, t.planned_ns) << "rank " << p.rank << " entry " << e;
        EXPECT_GE(t.complete_ns, t.post_ns);
        if (c.mode == Mode::timed) continue;
        for (uint32_t d : p.timeline.deps_of(e)) {
          EXPECT_GE(t.planned_ns, res.times[d].complete_ns + pe.think_ns)
              << "rank " << p.rank << " entry " << e << " posted before dependency " << d;
        }
      } else {
        EXPECT_GE(t.arrival_ns, t.post_ns);
        EXPECT_GE(t.complete_ns, t.arrival_ns);
        // One clock in one process: the sender posted it before it arrived.
        const RankOutcome& s = ranks[static_cast<size_t>(pe.peer)];
        const uint32_t se = s.plan.sends_to[static_cast<size_t>(p.rank)][pe.channel_pos];
        EXPECT_LE(s.result.times[se].post_ns, t.arrival_ns);
        EXPECT_EQ(s.plan.entries[se].bytes, pe.bytes);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Replay, EngineTest,
    ::testing::Values(
        Case{"dag_tcp", "tcp", Mode::dag, Transfer::send, 1u << 30, 0},
        Case{"dag_shm", "sm", Mode::dag, Transfer::send, 1u << 30, 0},
        Case{"asap_loop_split", "tcp", Mode::asap, Transfer::send, 300000, 3},
        Case{"timed", "tcp", Mode::timed, Transfer::send, 1u << 30, 1},
        Case{"write", "tcp", Mode::dag, Transfer::write, 1u << 30, 0},
        Case{"write_split_shm", "sm", Mode::asap, Transfer::write, 300000, 0},
        // 16 KiB parts: rendezvous parts and a small eager last part, which
        // completes first; every part's length is still checked against its own.
        Case{"send_split_small_last_shm", "sm", Mode::asap, Transfer::send, 16384, 0},
        Case{"dag_block_shm", "sm", Mode::dag, Transfer::send, 1u << 30, 0, Idle::block},
        Case{"dag_block_tcp", "tcp", Mode::dag, Transfer::send, 1u << 30, 0, Idle::block}),
    [](const ::testing::TestParamInfo<Case>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace dlcnet::replay
