// A Chakra job as the model's messages (replay/chakra_job_messages.hpp), on a hand-made job of
// two ranks written as .et files and read back: one message per replayed send (point-to-point
// and collective steps), named as the replay names them (key the sending node's id, opnum the
// step), and compute nodes' durations carried along every path: a send after a compute node of
// 500 us after a receive is posted 500 us after that receive's message arrived.
#include "replay/chakra_job_messages.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>

#include "core/error.hpp"
#include "model/network.hpp"
#include "model/predict.hpp"
#include "replay/chakra_plan.hpp"
#include "tests/trace/chakra_test_util.hpp"
#include "tests/trace/trace_test_util.hpp"
#include "trace/chakra/chakra_loader.hpp"

namespace dlcnet::replay {
namespace {

namespace ck = trace::chakra;
namespace t = trace::chakra::test;

// Rank 0 sends A (id 1), receives B, computes 500 us (id 3), sends C (id 4) after it, receives
// D, sends E (id 6) after A and the compute node; rank 1 receives A, computes 200 us, sends B
// (id 3), receives C, computes 10 ms from its start (id 5), sends D (id 6) after A and that,
// receives E. Then both take part in an all-reduce of 2000 B (rank 0's id 7, rank 1's id 8):
// two ring rounds of 1000 B each way, each a send then a receive (the sends' opnums 0 and 2).
std::vector<std::vector<ck::pb::Node>> two_ranks() {
  constexpr int64_t kB = 1000;
  std::vector<std::vector<ck::pb::Node>> ranks(2);
  ranks[0] = {t::send(1, 1, 1, kB),      t::recv(2, 1, 2, kB), t::comp(3, 500, {2}),
              t::send(4, 1, 3, kB, {3}), t::recv(5, 1, 4, kB), t::send(6, 1, 5, kB, {3, 1}),
              t::coll(7, 0, 2 * kB)};
  ranks[0].back().add_data_deps(4);
  ranks[0].back().add_data_deps(5);
  ranks[0].back().add_data_deps(6);
  ranks[1] = {t::recv(1, 0, 1, kB), t::comp(2, 200, {1}), t::send(3, 0, 2, kB, {2}),
              t::recv(4, 0, 3, kB), t::comp(5, 10000),    t::send(6, 0, 4, kB, {5, 1}),
              t::recv(7, 0, 5, kB), t::coll(8, 0, 2 * kB)};
  for (const uint64_t d : {4, 6, 7}) ranks[1].back().add_data_deps(d);
  return ranks;
}

struct Predicted {
  JobMessages jm;
  model::Prediction p;
  std::map<std::tuple<uint32_t, int32_t, int32_t>, size_t> by_name;  // src, key, opnum
  const model::MessageTimes& at(uint32_t src, int32_t key, int32_t opnum = 0) const {
    return p.messages[index(src, key, opnum)];
  }
  size_t index(uint32_t src, int32_t key, int32_t opnum = 0) const {
    return by_name.at({src, key, opnum});
  }
};

Predicted predict(const ck::Job& job, const PlanOptions& o) {
  Predicted out;
  out.jm = chakra_job_messages(job, o, {});
  model::Calibration c;
  c.link_rate_Bps = 1e9;
  c.base_latency_s = 5e-6;
  out.p = model::predict(model::uniform_network(2, c), c, out.jm.messages);
  for (size_t i = 0; i < out.jm.messages.size(); ++i) {
    const auto name = std::tuple(out.jm.messages[i].src, out.jm.key[i], out.jm.opnum[i]);
    EXPECT_TRUE(out.by_name.emplace(name, i).second) << "message " << i << " named twice";
  }
  return out;
}

void expect_time(double got, double want) {
  EXPECT_NEAR(got, want, 1e-12 + 1e-9 * want);
}

class ChakraJobMessages : public ::testing::Test {
 protected:
  void SetUp() override {
    t::write_job(dir_.path(), two_ranks());
    job_ = ck::read_job(std::vector<std::string>{dir_.path()});
  }
  trace::test::TempDir dir_;
  ck::Job job_;
};

TEST_F(ChakraJobMessages, EverySendOnceNamedAsTheReplayNamesIt) {
  const Predicted p = predict(job_, {});
  ASSERT_EQ(p.jm.messages.size(), chakra_messages(job_, {}).count);
  ASSERT_EQ(p.jm.messages.size(), 9u);  // A to E, and 2 ring steps per rank
  for (const auto& [src, key, opnum] : {std::tuple(0u, 1, 0),
                                        {0u, 4, 0},
                                        {0u, 6, 0},
                                        {0u, 7, 0},
                                        {0u, 7, 2},
                                        {1u, 3, 0},
                                        {1u, 6, 0},
                                        {1u, 8, 0},
                                        {1u, 8, 2}}) {
    EXPECT_EQ(p.by_name.count({src, key, opnum}), 1u) << src << " " << key << " " << opnum;
  }
  for (const model::Message& m : p.jm.messages) EXPECT_EQ(m.bytes, 1000u);
}

TEST_F(ChakraJobMessages, ComputeNodesDelayWhatDependsOnThem) {
  const Predicted p = predict(job_, {});
  const auto& a = p.at(0, 1);
  const auto& b = p.at(1, 3);
  expect_time(a.start_s, 0);
  expect_time(b.start_s, a.finish_s + 200e-6);           // A, then 200 us on rank 1
  expect_time(p.at(0, 4).start_s, b.finish_s + 500e-6);  // C: B, then 500 us on rank 0
  // E waits for A with no compute between and for B with 500 us: each path its own delay.
  const model::Message& e = p.jm.messages[p.index(0, 6)];
  EXPECT_EQ(e.after, (std::vector<uint32_t>{static_cast<uint32_t>(p.index(0, 1)),
                                            static_cast<uint32_t>(p.index(1, 3))}));
  EXPECT_EQ(e.after_delay_s, (std::vector<double>{0, 500e-6}));
  expect_time(p.at(0, 6).start_s, b.finish_s + 500e-6);
  // D: 10 ms of compute since rank 1's start, later than A's arrival.
  expect_time(p.at(1, 6).start_s, 10e-3);
  // The all-reduce's first steps wait for what the collective node depends on (rank 0: C and E
  // sent, D received), its second steps for the first steps' arrivals.
  const auto& d = p.at(1, 6);
  EXPECT_GE(p.at(0, 7, 0).start_s,
            std::max({p.at(0, 4).finish_s, d.finish_s, p.at(0, 6).finish_s}));
  EXPECT_GE(p.at(0, 7, 2).start_s, p.at(1, 8, 0).finish_s);
  EXPECT_GE(p.at(1, 8, 2).start_s, p.at(0, 7, 0).finish_s);
}

TEST_F(ChakraJobMessages, ModesAndTimeScale) {
  PlanOptions o;
  o.time_scale = 2;  // compute durations doubled
  Predicted p = predict(job_, o);
  expect_time(p.at(0, 4).start_s, p.at(1, 3).finish_s + 1e-3);
  expect_time(p.at(1, 6).start_s, 20e-3);
  o.mode = Mode::asap;  // no compute time
  p = predict(job_, o);
  expect_time(p.at(0, 4).start_s, p.at(1, 3).finish_s);
  expect_time(p.at(1, 6).start_s, p.at(0, 1).finish_s);
  o.mode = Mode::timed;  // every message at its node's start time, waiting for nothing
  p = predict(job_, o);
  for (const model::Message& m : p.jm.messages) EXPECT_TRUE(m.after.empty());
}

TEST_F(ChakraJobMessages, WhatTheReplayRefusesIsRefused) {
  ck::CollectiveOptions coll;
  coll.root = 2;
  try {
    chakra_job_messages(job_, {}, coll);
    FAIL() << "--root 2 of 2 ranks accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--root 2: the job has ranks 0 to 1"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace dlcnet::replay
