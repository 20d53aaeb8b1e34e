// dlc-bench ring's pure parts: every collective's plan executed on simulated ranks (each step's
// messages delivered between in-memory buffers) gives the exact result for counts below,
// equal to and not divisible by the number of ranks; the perturbed input is caught; the sweep;
// nccl-tests' bandwidths for a recorded run, computed by hand; the per-step latencies on
// rank 0's clock; the wire form of the times.
#include <gtest/gtest.h>

#include <cstring>

#include "core/error.hpp"
#include "patterns/ring/collective.hpp"
#include "patterns/ring/ring_analysis.hpp"
#include "patterns/ring/ring_memory.hpp"
#include "patterns/ring/ring_times.hpp"
#include "patterns/ring/segments.hpp"

namespace dlcnet::ring {
namespace {

// Every collective of the table, so that a new one is checked here without a line of its own.
const std::vector<std::string> kAll = collective_names();

struct SimRank {
  std::vector<float> in, out, stage;
  std::vector<float>& buf(Buf b) { return b == Buf::in ? in : b == Buf::out ? out : stage; }
};

// Runs one iteration of `c` on n simulated ranks; returns every rank's wrong elements.
std::vector<uint64_t> simulate(const std::string& c, uint64_t bytes, int n, uint32_t t, int corrupt,
                               int root = 0) {
  const CollectiveDef& def = collective(c);
  const Layout l = layout_of(def, bytes, n, root);
  std::vector<Plan> plans;
  std::vector<SimRank> ranks(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) {
    plans.push_back(plan_for(def, l, r));
    SimRank& s = ranks[static_cast<size_t>(r)];
    // -1: anything the plan forgets to fill or move shows (a barrier's tokens lie beyond its
    // count of 0).
    s.in.assign(vector_elems(l, plans.back()), -1.0f);
    s.out.assign(vector_elems(l, plans.back()), -1.0f);
    s.stage.assign(l.max_chunk * static_cast<uint64_t>(n), -1.0f);
    def.fill(s.in.data(), l, r, t);
    if (r == corrupt) {
      const uint64_t g = def.corrupt_index(l, r);
      if (g != kNoElement) s.in[g] += 1.0f;
    }
    for (const Piece& p : plans.back().copies) {
      if (p.count == 0) continue;  // an empty vector's data() may be null (memcpy's UB)
      std::memcpy(s.out.data() + p.off, s.in.data() + p.off, p.count * sizeof(float));
    }
  }
  const size_t steps = plans[0].steps.size();
  for (size_t i = 0; i < steps; ++i) {
    // Every rank's message of step i leaves before any arrives (the data is what the sender
    // holds at the start of the step).
    std::vector<std::vector<float>> wire(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
      const Step& s = plans[static_cast<size_t>(r)].steps[i];
      if (s.to < 0 || s.send.count == 0) continue;
      const std::vector<float>& src = ranks[static_cast<size_t>(r)].buf(s.send.buf);
      wire[static_cast<size_t>(r)].assign(
          src.begin() + static_cast<ptrdiff_t>(s.send.off),
          src.begin() + static_cast<ptrdiff_t>(s.send.off + s.send.count));
      const Step& peer = plans[static_cast<size_t>(s.to)].steps[i];
      EXPECT_EQ(peer.from, r);
      EXPECT_EQ(peer.recv.count, s.send.count);
      EXPECT_EQ(s.remote.off, peer.recv.off);
      EXPECT_EQ(s.remote.buf, peer.recv.buf);
    }
    for (int r = 0; r < n; ++r) {
      const Step& s = plans[static_cast<size_t>(r)].steps[i];
      if (s.from < 0 || s.recv.count == 0) continue;
      SimRank& me = ranks[static_cast<size_t>(r)];
      const std::vector<float>& msg = wire[static_cast<size_t>(s.from)];
      EXPECT_EQ(msg.size(), s.recv.count);
      std::copy(msg.begin(), msg.end(),
                me.buf(s.recv.buf).begin() + static_cast<ptrdiff_t>(s.recv.off));
      if (s.reduce) {
        // The received piece (a staging slot, or the output itself: a sum made in place).
        const std::vector<float>& got = me.buf(s.recv.buf);
        if (s.recv.buf == Buf::out) {
          EXPECT_EQ(s.recv.off, s.reduce_off);  // the engine's rule for a sum in place
        }
        for (uint64_t k = 0; k < s.recv.count; ++k) {
          me.out[s.reduce_off + k] = me.in[s.reduce_off + k] + got[s.recv.off + k];
        }
      }
    }
  }
  std::vector<uint64_t> wrong;
  for (int r = 0; r < n; ++r) {
    wrong.push_back(def.check(ranks[static_cast<size_t>(r)].out.data(), l, r, t));
  }
  return wrong;
}

TEST(RingPlan, EveryCollectiveIsExactForAwkwardSizes) {
  for (const std::string& c : kAll) {
    for (int n : {2, 3, 4, 5}) {
      for (uint64_t bytes : {4ull, 12ull, 28ull, 4004ull, 65536ull, 1001ull}) {
        for (uint32_t t : {0u, 7u}) {
          const std::vector<uint64_t> wrong = simulate(c, bytes, n, t, -1);
          for (int r = 0; r < n; ++r) {
            EXPECT_EQ(wrong[static_cast<size_t>(r)], 0u)
                << c << " " << n << " ranks " << bytes << " B rank " << r;
          }
        }
      }
    }
  }
}

TEST(RingPlan, ThePerturbedInputIsFound) {
  for (const std::string& c : kAll) {
    // A rooted collective carries only its root's input: perturb the root's.
    const std::vector<uint64_t> wrong = simulate(c, 4096, 4, 3, 2, collective(c).rooted ? 2 : 0);
    uint64_t total = 0;
    for (uint64_t w : wrong) total += w;
    EXPECT_GT(total, 0u) << c;
  }
  // All-reduce: the one element is wrong on every rank.
  EXPECT_EQ(simulate("allreduce", 4096, 4, 3, 1), (std::vector<uint64_t>{1, 1, 1, 1}));
}

TEST(RingPlan, BroadcastFromEveryRootReachesEveryRankInAChain) {
  for (int n : {2, 3, 5}) {
    for (int root = 0; root < n; ++root) {
      EXPECT_EQ(simulate("broadcast", 1001, n, 4, -1, root), std::vector<uint64_t>(n, 0));
      // The root's perturbed element is wrong on every rank, the root's own output (a copy of
      // its input) included.
      EXPECT_EQ(simulate("broadcast", 4096, n, 4, root, root), std::vector<uint64_t>(n, 1));
    }
  }
  const Layout l = layout_of(collective("broadcast"), 4096, 4, 2);
  const Plan p = plan_for(collective("broadcast"), l, 3);  // one place after the root
  ASSERT_EQ(p.steps.size(), 3u);
  EXPECT_EQ(p.steps[0].from, 2);
  EXPECT_EQ(p.steps[1].to, 0);
  EXPECT_EQ(p.steps[1].send.count, 1024u);
  EXPECT_LT(p.steps[2].to + p.steps[2].from, -1);  // nothing in the last step
}

// Reduce, gather and scatter from every root: exact; a perturbed input is wrong where it
// lands (the root's output; for scatter the output of the rank after the root); reduce's
// chain.
TEST(RingPlan, RootedCollectivesFromEveryRoot) {
  for (int n : {2, 3, 5}) {
    for (int root = 0; root < n; ++root) {
      const auto at = [&](int k) { return static_cast<size_t>((root + k) % n); };
      for (const char* c : {"reduce", "gather", "scatter"}) {
        EXPECT_EQ(simulate(c, 1004, n, 2, -1, root), std::vector<uint64_t>(n, 0)) << c;
      }
      std::vector<uint64_t> one(static_cast<size_t>(n), 0);
      one[at(0)] = 1;
      EXPECT_EQ(simulate("reduce", 4096, n, 2, static_cast<int>(at(n - 1)), root), one);
      EXPECT_EQ(simulate("gather", 4096, n, 2, static_cast<int>(at(1)), root), one);
      std::vector<uint64_t> next(static_cast<size_t>(n), 0);
      next[at(1)] = 1;
      EXPECT_EQ(simulate("scatter", 4096, n, 2, root, root), next);
    }
  }
  // Reduce: a chain 2 -> 3 -> 0 -> 1 (root 1), each link the whole vector, summed on arrival.
  const CollectiveDef& red = collective("reduce");
  const Layout l = layout_of(red, 4000, 4, 1);
  const Plan head = plan_for(red, l, 2), mid = plan_for(red, l, 0), root = plan_for(red, l, 1);
  ASSERT_EQ(root.steps.size(), 3u);
  EXPECT_EQ(head.steps[0].to, 3);
  EXPECT_EQ(head.steps[0].send.buf, Buf::in);
  EXPECT_EQ(head.steps[0].send.count, 1000u);
  EXPECT_LT(head.steps[1].to + head.steps[1].from + head.steps[2].to + head.steps[2].from, -3);
  EXPECT_EQ(mid.steps[1].from, 3);
  EXPECT_TRUE(mid.steps[1].reduce);
  EXPECT_EQ(mid.steps[2].to, 1);
  EXPECT_EQ(mid.steps[2].send.buf, Buf::out);
  EXPECT_EQ(mid.steps[2].remote.buf, Buf::out);  // received into the output, summed there
  EXPECT_EQ(root.steps[2].from, 0);
  EXPECT_EQ(root.steps[2].recv.buf, Buf::out);
  EXPECT_EQ(root.steps[2].recv.count, 1000u);
  EXPECT_LT(root.steps[0].from + root.steps[1].from + root.steps[2].to, -2);
  // Rank 0 is the head at 2 ranks from root 1 and receives nothing: the buffers are sized by
  // the root's plan, which does; a sum in place needs no staging.
  RingSpec spec;
  spec.collective = "reduce";
  spec.root = 1;
  spec.sizes = {4096};
  const RegionMap m = region_map(spec, 2);
  EXPECT_GE(m.out[1], m.out[0] + 4096);
  EXPECT_GE(m.stage[0], m.out[1] + 4096);
  EXPECT_EQ(m.notify_send, m.stage[0]);
}

// The dissemination barrier: ceil(log2 N) rounds, rank r to r+2^k, from r-2^k; a token of
// the wrong iteration (here perturbed) is wrong at the rank it reaches.
TEST(RingPlan, BarrierIsADisseminationBarrier) {
  const CollectiveDef& b = collective("barrier");
  const Layout l = layout_of(b, 8, 5, 0);
  EXPECT_EQ(l.count, 0u);
  const Plan p = plan_for(b, l, 1);
  ASSERT_EQ(p.steps.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    const Step& st = p.steps[static_cast<size_t>(k)];
    EXPECT_EQ(st.to, (1 + (1 << k)) % 5);
    EXPECT_EQ(st.from, ((1 - (1 << k)) % 5 + 5) % 5);
    EXPECT_EQ(st.send.count, 1u);
    EXPECT_EQ(st.recv.off, static_cast<uint64_t>(k));
  }
  EXPECT_EQ(vector_elems(l, p), 3u);
  EXPECT_EQ(plan_for(b, layout_of(b, 8, 2, 0), 0).steps.size(), 1u);
  EXPECT_EQ(plan_for(b, layout_of(b, 8, 16, 0), 0).steps.size(), 4u);
  // Rank 2's token reaches 3 (round 0), 4 (round 1) and 1 (round 2).
  EXPECT_EQ(simulate("barrier", 8, 5, 1, 2), (std::vector<uint64_t>{0, 1, 0, 1, 1}));
  RingSpec s;
  s.collective = "barrier";
  s.sizes = {0};
  const RegionMap m = region_map(s, 5);
  EXPECT_GE(m.out[0], m.in + 4);
  EXPECT_GE(m.out[1], m.out[0] + 3 * 4);
  EXPECT_GE(m.stage[0], m.out[1] + 3 * 4);
}

TEST(RingPlan, StepsAndPeers) {
  const Layout l = collective("allreduce").layout(4096, 4);
  const Plan p = plan_for(collective("allreduce"), l, 1);
  ASSERT_EQ(p.steps.size(), 6u);  // 2 (N-1)
  for (const Step& s : p.steps) {
    EXPECT_EQ(s.to, 2);
    EXPECT_EQ(s.from, 0);
  }
  const Plan a = plan_for(collective("alltoall"), l, 1);
  ASSERT_EQ(a.steps.size(), 3u);
  EXPECT_EQ(a.steps[0].to, 2);
  EXPECT_EQ(a.steps[0].from, 0);
  EXPECT_EQ(a.steps[2].to, 0);
  EXPECT_EQ(a.steps[2].from, 2);
}

TEST(RingLayout, UnevenChunksCoverTheVector) {
  const Layout l = even_chunks(10, 4);
  EXPECT_EQ(l.chunk_count, (std::vector<uint64_t>{3, 3, 2, 2}));
  EXPECT_EQ(l.chunk_off, (std::vector<uint64_t>{0, 3, 6, 8}));
  const Layout one = even_chunks(1, 4);
  EXPECT_EQ(one.chunk_count, (std::vector<uint64_t>{1, 0, 0, 0}));
  // All-to-all rounds the count down to a multiple of N, as nccl-tests does.
  EXPECT_EQ(collective("alltoall").layout(4004, 3).count, 999u);
  EXPECT_EQ(collective("allreduce").layout(1001, 3).count, 250u);
}

TEST(RingMemory, RegionsDoNotOverlap) {
  RingSpec s;
  s.collective = "reducescatter";  // two sets of output and staging buffers
  s.sizes = {4, 1 << 20};
  const RegionMap m = region_map(s, 4);
  const uint64_t vec = (1u << 20);
  EXPECT_GE(m.out[0], m.in + vec);
  EXPECT_GE(m.out[1], m.out[0] + vec);
  EXPECT_GE(m.stage[0], m.out[1] + vec);
  EXPECT_GE(m.stage[1], m.stage[0] + 3 * vec / 4);  // 3 slots of a quarter
  EXPECT_GT(m.notify_recv[0], m.notify_send);
  EXPECT_GE(m.total, m.notify_recv[1] + 6 * 8);
}

// All-reduce's iterations share one set (CollectiveDef::one_buffer_set; ring_cli.sh checks
// every element of many iterations with it, over sends and writes).
TEST(RingMemory, AllreduceUsesOneBufferSet) {
  RingSpec s;
  s.collective = "allreduce";
  s.sizes = {4, 1 << 20};
  const RegionMap m = region_map(s, 4);
  const uint64_t vec = (1u << 20);
  EXPECT_EQ(m.out[1], m.out[0]);
  EXPECT_EQ(m.stage[1], m.stage[0]);
  EXPECT_GE(m.stage[0], m.out[0] + vec);
  EXPECT_GE(m.notify_send, m.stage[0] + 3 * vec / 4);
  EXPECT_GT(m.notify_recv[1], m.notify_recv[0]);  // notifications still alternate
  EXPECT_FALSE(collective("allgather").one_buffer_set);
  EXPECT_FALSE(collective("reducescatter").one_buffer_set);
  EXPECT_FALSE(collective("alltoall").one_buffer_set);
}

TEST(RingSegments, CutLikeTheReceiverCuts) {
  EXPECT_EQ(pieces(10, 4), 3u);
  EXPECT_EQ(pieces(0, 4), 0u);
  EXPECT_EQ(pieces(10, 0), 1u);
  const Piece last = segment(Piece{Buf::out, 100, 10}, 4, 2);
  EXPECT_EQ(last.off, 108u);
  EXPECT_EQ(last.count, 2u);
  // 4 ranks, 4004 B: chunks of 251, 250, 250, 250 elements; 64-byte segments = 16 elements.
  const CollectiveDef& def = collective("allreduce");
  const Layout l = def.layout(4004, 4);
  const Segments s = cut(plan_for(def, l, 0), 64);
  ASSERT_EQ(s.count.size(), 6u);
  EXPECT_EQ(s.elems, 16u);
  EXPECT_EQ(s.count[0], 16u);  // ceil(251 / 16) for the larger of its two messages
  EXPECT_EQ(s.base[1], s.count[0]);
  EXPECT_THROW(cut(plan_for(def, def.layout(64u << 20, 2), 0), 4), Error);
  // 1 element over 3 ranks: rank 0's all-gather step 1 sends and receives empty chunks, yet
  // keeps a slot (--op write sends it as a notification alone: the chain's link, issue 29).
  const CollectiveDef& ag = collective("allgather");
  EXPECT_EQ(cut(plan_for(ag, ag.layout(4, 3), 0), 0).count, (std::vector<uint32_t>{1, 1}));
}

TEST(RingSweep, LikeNcclTests) {
  EXPECT_EQ(sweep(4, 64, 2, 0), (std::vector<uint64_t>{4, 8, 16, 32, 64}));
  EXPECT_EQ(sweep(4, 63, 2, 0), (std::vector<uint64_t>{4, 8, 16, 32}));
  EXPECT_EQ(sweep(100, 400, 2, 100), (std::vector<uint64_t>{100, 200, 300, 400}));
  EXPECT_EQ(sweep(7, 7, 2, 0), (std::vector<uint64_t>{7}));
  EXPECT_THROW(sweep(8, 4, 2, 0), Error);
  EXPECT_THROW(sweep(0, 4, 2, 0), Error);
  EXPECT_THROW(sweep(4, 8, 1, 0), Error);
}

// A recorded run: 4 ranks, 1 MiB all-reduce, 2 iterations. Per-iteration times (us):
// iteration 0: 100, 200, 300, 400 -> 250; iteration 1: 150, 250, 350, 450 -> 300.
// time = 275 us; algbw = 1048576 B / 275 us = 3.81300 GB/s; busbw = x 2*3/4 = 5.71951 GB/s.
std::vector<SizeTimes> recorded() {
  std::vector<SizeTimes> v(4);
  for (int r = 0; r < 4; ++r) {
    for (int k = 0; k < 2; ++k) {
      RunTimes t;
      t.entry_ns = 1'000'000 * k;
      t.end_ns = t.entry_ns + (100 + 100 * r + 50 * k) * 1000;
      v[static_cast<size_t>(r)].runs.push_back(t);
    }
    v[static_cast<size_t>(r)].checked = 2;
  }
  return v;
}

TEST(RingRow, BandwidthsByHand) {
  const CollectiveDef& def = collective("allreduce");
  const Layout l = def.layout(1 << 20, 4);
  const Row r = make_row(def, l, recorded());
  EXPECT_EQ(r.bytes, 1u << 20);
  EXPECT_EQ(r.count, 1u << 18);
  EXPECT_NEAR(r.time_s, 275e-6, 1e-12);
  EXPECT_NEAR(r.algbw / 1e9, 3.813003636, 1e-6);
  EXPECT_NEAR(r.busbw / 1e9, 5.719505455, 1e-6);
  EXPECT_EQ(r.iteration_s.count, 2u);
  EXPECT_EQ(r.wrong, 0u);
  EXPECT_EQ(r.checked, 8u);
  const Row g = make_row(collective("allgather"), l, recorded());
  EXPECT_NEAR(g.busbw / g.algbw, 0.75, 1e-12);
}

TEST(RingAnalysis, StepLatencyOnRankZerosClock) {
  // 2 ranks, one all-reduce iteration of 2 steps; rank 1's clock reads 5 ms ahead.
  const CollectiveDef& def = collective("allreduce");
  const Layout l = def.layout(1024, 2);
  const std::vector<Plan> plans{plan_for(def, l, 0), plan_for(def, l, 1)};
  std::vector<SizeTimes> t(2);
  const int64_t ahead = 5'000'000;
  for (int r = 0; r < 2; ++r) {
    RunTimes run;
    const int64_t off = r == 1 ? ahead : 0;
    run.entry_ns = off;
    run.end_ns = off + 100'000;
    run.slots.resize(2);
    // Step 0: rank 0 -> 1 takes 10 us, rank 1 -> 0 takes 30 us; step 1: 20 us both ways.
    run.slots[0].post_ns = off + 0;
    run.slots[1].post_ns = off + 40'000;
    run.slots[0].arrival_ns = off + (r == 1 ? 10'000 : 30'000);
    run.slots[1].arrival_ns = off + 60'000;
    t[static_cast<size_t>(r)].runs.push_back(run);
  }
  std::vector<ClockModel> clocks(2);
  clocks[1].offset_ns = static_cast<double>(ahead);
  clocks[1].uncertainty_ns = 500;
  const SizeResult s = analyse_size(def, l, plans, 0, t, clocks);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[0].phase, "reduce-scatter");
  EXPECT_NEAR(s.steps[0].latency_s.min, 10e-6, 1e-12);
  EXPECT_NEAR(s.steps[0].latency_s.max, 30e-6, 1e-12);
  EXPECT_EQ(s.steps[0].slow_src, 1);
  EXPECT_EQ(s.steps[0].slow_dst, 0);
  EXPECT_NEAR(s.steps[0].slow_p50_s, 30e-6, 1e-12);
  EXPECT_NEAR(s.steps[1].latency_s.p50, 20e-6, 1e-12);
  EXPECT_NEAR(s.steps[0].bound_s, 500e-9, 1e-15);
  EXPECT_NEAR(s.span_s.max, 100e-6, 1e-12);
}

TEST(RingTimes, RoundTripAndMalformed) {
  std::vector<SizeTimes> v = recorded();
  v[1].wrong = 3;
  v[1].runs[0].slots.push_back(SlotTimes{1, 2, 3});
  const std::vector<SizeTimes> back = decode(encode(v), 1);
  ASSERT_EQ(back.size(), v.size());
  EXPECT_EQ(back[1].wrong, 3u);
  EXPECT_EQ(back[1].runs[0].slots[0].arrival_ns, 3);
  EXPECT_EQ(back[3].runs[1].end_ns, v[3].runs[1].end_ns);
  Bytes b = encode(v);
  b.pop_back();
  EXPECT_THROW(decode(b, 2), ProtocolError);
  const Bytes huge{0xff, 0xff, 0xff, 0xff};  // 4 billion sizes in 4 bytes
  EXPECT_THROW(decode(huge, 2), ProtocolError);
}

}  // namespace
}  // namespace dlcnet::ring
