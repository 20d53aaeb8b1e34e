// The replay plan of a Chakra job (replay/chakra_plan.hpp) on jobs built in memory: every
// collective's steps meet between each pair of ranks, point-to-point messages and compute
// nodes become entries with the right peers, keys, think times and dependencies, a
// collective's steps depend on each other by rounds, and what the replay cannot carry is
// refused naming the file, the node and the field.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "replay/chakra_plan.hpp"
#include "replay/chakra_spans.hpp"

namespace dlcnet::replay {
namespace {

namespace ck = trace::chakra;
using ck::Collective;
using ck::NodeType;
using ::testing::HasSubstr;

// Where the nodes built here keep their names and dependencies: for the whole program.
ck::NodeStore& store() {
  static ck::NodeStore s;
  return s;
}

ck::Node node(uint64_t id, NodeType type, std::vector<uint64_t> deps = {}) {
  ck::Node n;
  n.id = id;
  n.type = type;
  store().set_name(n, "n" + std::to_string(id));
  store().set_deps(n, {}, deps);
  return n;
}

ck::Node comp(uint64_t id, uint64_t us, std::vector<uint64_t> deps = {}) {
  ck::Node n = node(id, NodeType::kComp, std::move(deps));
  n.duration_us = us;
  return n;
}

ck::Node message(uint64_t id, NodeType type, int32_t src, int32_t dst, uint64_t size,
                 std::vector<uint64_t> deps = {}) {
  ck::Node n = node(id, type, std::move(deps));
  n.src = src;
  n.dst = dst;
  n.size = size;
  return n;
}

ck::Node coll(uint64_t id, Collective c, uint64_t size, std::vector<uint64_t> deps = {}) {
  ck::Node n = node(id, NodeType::kCommColl, std::move(deps));
  n.collective = c;
  n.size = size;
  return n;
}

ck::Job make_job(std::vector<std::vector<ck::Node>> ranks) {
  ck::Job job;
  job.world = static_cast<int32_t>(ranks.size());
  for (size_t r = 0; r < ranks.size(); ++r) {
    ck::Rank rank;
    rank.rank = static_cast<int32_t>(r);
    rank.file = "job." + std::to_string(r) + ".et";
    rank.nodes = std::move(ranks[r]);
    for (uint32_t i = 0; i < rank.nodes.size(); ++i) rank.nodes[i].index = i;
    job.ranks.push_back(std::move(rank));
  }
  return job;
}

PlanOptions options(Mode mode = Mode::dag) {
  PlanOptions o;
  o.mode = mode;
  o.part_bytes = uint64_t{1} << 30;
  return o;
}

std::vector<uint32_t> deps_of(const RankPlan& p, uint32_t e) {
  const auto d = p.timeline.deps_of(e);
  return {d.begin(), d.end()};
}

// Rank a's k-th send to b carries what b's k-th receive from a expects, for every collective,
// world size, buffer size, root and reading of comm_size.
TEST(ChakraSteps, EverySendMeetsItsReceive) {
  for (size_t c = 0; c < ck::kNumCollectives; ++c) {
    for (const int32_t n : {2, 3, 4, 5}) {
      for (const uint64_t size : {uint64_t{0}, uint64_t{5}, uint64_t{1000003}}) {
        for (const int32_t root : {0, n - 1}) {
          for (const auto reading : {ck::SizeReading::kWhole, ck::SizeReading::kPerRank}) {
            const ck::CollectiveOptions o{reading, root, {}};
            std::vector<std::vector<ck::Step>> all;
            for (int32_t r = 0; r < n; ++r) {
              all.push_back(ck::steps(static_cast<Collective>(c), size, n, r, o));
              EXPECT_TRUE(std::is_sorted(
                  all.back().begin(), all.back().end(),
                  [](const ck::Step& x, const ck::Step& y) { return x.round < y.round; }));
            }
            for (int32_t a = 0; a < n; ++a) {
              for (int32_t b = 0; b < n; ++b) {
                std::vector<uint64_t> sent, received;
                for (const ck::Step& s : all[static_cast<size_t>(a)]) {
                  if (s.send && s.peer == b) sent.push_back(s.bytes);
                }
                for (const ck::Step& s : all[static_cast<size_t>(b)]) {
                  if (!s.send && s.peer == a) received.push_back(s.bytes);
                }
                EXPECT_EQ(sent, received)
                    << ck::collective_name(static_cast<Collective>(c)) << " n " << n << " size "
                    << size << " root " << root << " " << a << "->" << b;
              }
            }
          }
        }
      }
    }
  }
}

// Rank 0 computes 10 us, then sends 4096 B to rank 1; rank 1 receives it, then computes.
ck::Job point_to_point() {
  return make_job({{comp(1, 10), message(2, NodeType::kCommSend, 0, 1, 4096, {1})},
                   {message(7, NodeType::kCommRecv, 0, 1, 4096), comp(8, 3, {7})}});
}

TEST(ChakraPlan, PointToPointAndCompute) {
  const ck::Job job = point_to_point();
  const RankPlan p0 = build_chakra_plan(job, 0, options(), {});
  ASSERT_EQ(p0.entries.size(), 2u);
  EXPECT_TRUE(p0.entries[0].compute);
  EXPECT_EQ(p0.entries[0].think_ns, 10'000);
  const PlanEntry& send = p0.entries[1];
  EXPECT_TRUE(send.send && send.replayable && !send.compute);
  EXPECT_EQ(send.peer, 1);
  EXPECT_EQ(send.bytes, 4096u);
  EXPECT_EQ(send.key, 2);  // the sending node's id
  EXPECT_EQ(send.msg_opnum, 0);
  EXPECT_EQ(send.think_ns, 0);
  EXPECT_EQ(deps_of(p0, 1), std::vector<uint32_t>{0});
  EXPECT_EQ(p0.sends_to[1], std::vector<uint32_t>{1});
  EXPECT_EQ(p0.sends, 1u);
  EXPECT_EQ(p0.receives, 0u);
  EXPECT_EQ(p0.unreplayable, 0u);  // compute entries are not messages left out

  const RankPlan p1 = build_chakra_plan(job, 1, options(), {});
  ASSERT_EQ(p1.entries.size(), 2u);
  const PlanEntry& recv = p1.entries[0];
  EXPECT_TRUE(!recv.send && recv.replayable);
  EXPECT_EQ(recv.peer, 0);
  EXPECT_EQ(recv.key, 2);  // the sender's node id names the message on both ends
  EXPECT_EQ(p1.recvs_from[0], std::vector<uint32_t>{0});
  EXPECT_EQ(deps_of(p1, 1), std::vector<uint32_t>{0});
  EXPECT_EQ(p1.entries[1].think_ns, 3'000);

  EXPECT_EQ(build_chakra_plan(job, 0, options(Mode::asap), {}).entries[0].think_ns, 0);
  EXPECT_TRUE(build_chakra_plan(job, 0, options(Mode::timed), {}).open_loop);
}

// A node listed before its dependency is planned after it.
TEST(ChakraPlan, DependencyOrderNotFileOrder) {
  const ck::Job job = make_job({{message(2, NodeType::kCommSend, 0, 1, 64, {1}), comp(1, 5)},
                                {message(3, NodeType::kCommRecv, 0, 1, 64)}});
  const RankPlan p = build_chakra_plan(job, 0, options(), {});
  ASSERT_EQ(p.entries.size(), 2u);
  EXPECT_TRUE(p.entries[0].compute);
  EXPECT_TRUE(p.entries[1].send);
  EXPECT_EQ(deps_of(p, 1), std::vector<uint32_t>{0});
}

// Ring all-reduce among 3 ranks: start, 4 sends and 4 receives, end; a send after the first
// round waits for the round before's receive; the end for every step; the next node for the end.
TEST(ChakraPlan, CollectiveStepsByRound) {
  std::vector<std::vector<ck::Node>> ranks;
  for (int r = 0; r < 3; ++r) {
    ranks.push_back({coll(5, Collective::kAllReduce, 3000), comp(6, 1, {5})});
  }
  const ck::Job job = make_job(ranks);
  const RankPlan p = build_chakra_plan(job, 1, options(), {});
  ASSERT_EQ(p.entries.size(), 11u);  // start, 8 steps, end, compute
  EXPECT_TRUE(p.entries[0].compute);
  EXPECT_EQ(p.sends, 4u);
  EXPECT_EQ(p.receives, 4u);
  EXPECT_EQ(p.sends_to[2].size(), 4u);
  EXPECT_EQ(p.recvs_from[0].size(), 4u);
  // Steps 1..8: send, receive per round.
  EXPECT_EQ(deps_of(p, 1), std::vector<uint32_t>{0});  // round 0 send: the start
  EXPECT_EQ(deps_of(p, 2), std::vector<uint32_t>{0});  // receives: the start
  EXPECT_EQ(deps_of(p, 3), std::vector<uint32_t>{2});  // round 1 send: round 0's receive
  EXPECT_EQ(deps_of(p, 7), std::vector<uint32_t>{6});
  EXPECT_EQ(deps_of(p, 9), (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(deps_of(p, 10), std::vector<uint32_t>{9});
  for (uint32_t e = 1; e <= 8; ++e) {
    EXPECT_EQ(p.entries[e].bytes, 1000u);
    EXPECT_EQ(p.entries[e].key, 5);
  }
  // A receive is named by its sender's step: rank 0's sends to rank 1 are its steps 0, 2, 4, 6.
  std::vector<int32_t> opnums;
  for (const uint32_t e : p.recvs_from[0]) opnums.push_back(p.entries[e].msg_opnum);
  EXPECT_EQ(opnums, (std::vector<int32_t>{0, 2, 4, 6}));
  EXPECT_EQ(chakra_messages(job, {}).count, 12u);
}

TEST(ChakraPlan, FingerprintFollowsJobAndOptions) {
  const ck::Job a = point_to_point();
  ck::Job b = point_to_point();
  EXPECT_EQ(chakra_fingerprint(a, options(), {}), chakra_fingerprint(b, options(), {}));
  b.ranks[0].nodes[1].size = 4097;
  EXPECT_NE(chakra_fingerprint(a, options(), {}), chakra_fingerprint(b, options(), {}));
  EXPECT_NE(chakra_fingerprint(a, options(), {}), chakra_fingerprint(a, options(Mode::asap), {}));
  EXPECT_NE(chakra_fingerprint(a, options(), {}),
            chakra_fingerprint(a, options(), {ck::SizeReading::kWhole, 1, {}}));
}

// A collective's span: its messages' first post to their last arrival; point-to-point messages
// (key: a send node's id) belong to none.
TEST(ChakraSpans, FirstPostToLastArrival) {
  std::vector<std::vector<ck::Node>> ranks;
  for (int r = 0; r < 2; ++r) {
    ck::Node c = coll(9, Collective::kBroadcast, 100);
    c.duration_us = 40u + static_cast<uint64_t>(r);
    ranks.push_back({c, message(3, r == 0 ? NodeType::kCommSend : NodeType::kCommRecv, 0, 1, 8)});
  }
  const ck::Job job = make_job(ranks);
  std::vector<Flow> flows(2);
  flows[0] = {0, 1, 9, 0, 100, 1000, 500, 0};  // the broadcast's message
  flows[1] = {0, 1, 3, 0, 8, 100, 50, 0};      // the point-to-point one
  const std::vector<CollectiveSpan> s = collective_spans(job, flows);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].type, Collective::kBroadcast);
  EXPECT_EQ(s[0].messages, 1u);
  EXPECT_EQ(s[0].bytes, 100u);
  EXPECT_DOUBLE_EQ(s[0].span_s(), 500e-9);
  EXPECT_EQ(s[0].trace_duration_us, 41u);
}

std::string refusal(const ck::Job& job, const ck::CollectiveOptions& o = {}) {
  try {
    check_chakra_replayable(job, o);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ChakraPlan, RefusesWhatItCannotReplay) {
  std::string e = refusal(
      make_job({{coll(4, Collective::kAllReduce, 64)}, {coll(4, Collective::kBarrier, 0)}}));
  EXPECT_THAT(e, HasSubstr("job.1.et: node #0 (id 4, 'n4'): field 'comm_type': BARRIER, but "
                           "collective number 1 of the whole world on rank 0 is ALL_REDUCE"));
  e = refusal(
      make_job({{coll(4, Collective::kAllReduce, 64)}, {coll(4, Collective::kAllReduce, 8)}}));
  EXPECT_THAT(e, HasSubstr("field 'comm_size': 8 B, but collective number 1 of the whole world on "
                           "rank 0 has 64 B"));
  e = refusal(make_job({{coll(4, Collective::kAllReduce, 64)}, {comp(4, 1)}}));
  EXPECT_THAT(e, HasSubstr("job.0.et: node #0 (id 4, 'n4'): field 'comm_type': collective number "
                           "1 of the whole world on rank 0, but rank 1 (job.1.et) has 0"));
  e = refusal(make_job({{comp(uint64_t{1} << 31, 1)}, {comp(1, 1)}}));
  EXPECT_THAT(e, HasSubstr("field 'id': 2147483648 is above 2^31-1"));
  // Within a process group: its members' collectives in it must agree, in the group's order.
  ck::Node reduce = coll(5, Collective::kAllReduce, 64);
  ck::Node barrier = coll(5, Collective::kBarrier, 0);
  store().set_pg_name(reduce, "tp");
  store().set_pg_name(barrier, "tp");
  ck::Job grouped = make_job({{comp(1, 1)}, {reduce}, {barrier}});
  grouped.groups["tp"] = ck::Group{{1, 2}, "groups.json"};
  EXPECT_THAT(refusal(grouped),
              HasSubstr("job.2.et: node #0 (id 5, 'n5'): field 'comm_type': BARRIER, but "
                        "collective number 1 of process group 'tp' on rank 1 is ALL_REDUCE"));
  grouped.ranks[2].nodes[0] = reduce;
  EXPECT_EQ(refusal(grouped), "");
  e = refusal(point_to_point(), {ck::SizeReading::kWhole, 2, {}});
  EXPECT_THAT(e, HasSubstr("--root 2: the job has ranks 0 to 1"));
  EXPECT_EQ(refusal(point_to_point()), "");
}

}  // namespace
}  // namespace dlcnet::replay
