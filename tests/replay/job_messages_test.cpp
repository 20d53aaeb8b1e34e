// A job as the model's messages (replay/job_messages.hpp): one message per replayed send, named
// as the replay names it, with dependencies that point back only, that a parameter server's
// replies wait for the workers' pushes, that each follows the one before it on its channel, and
// that the model can run.
#include "replay/job_messages.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "model/predict.hpp"
#include "trace/trace_synth.hpp"

namespace dlcnet::replay {
namespace {

trace::Job lenet(uint16_t workers, uint16_t servers, uint32_t iterations) {
  trace::SynthConfig c;
  c.workers = workers;
  c.servers = servers;
  c.iterations = iterations;
  c.model = trace::preset_model("lenet5");
  return trace::synthesize(c);
}

TEST(ReplayJobMessages, OneMessagePerReplayedSendWithBackwardDependencies) {
  const trace::Job job = lenet(2, 1, 3);
  const RankMap map = RankMap::make(job, "");
  PlanOptions o;
  const Copies copies = Copies::make(job, o.iterations);
  size_t sends = 0;
  for (int r = 0; r < map.world_size(); ++r) {
    const RankPlan p = build_rank_plan(job, map, r, o, copies);
    for (const PlanEntry& e : p.entries) sends += e.send && e.replayable && e.peer >= 0;
  }
  const JobMessages jm = job_messages(job, map, o, copies);
  ASSERT_EQ(jm.messages.size(), sends);
  std::set<std::tuple<uint32_t, uint32_t, int32_t, int32_t>> names;
  size_t waiting = 0, replies_waiting_for_pushes = 0;
  const uint32_t server = 2;  // ranks: worker0, worker1, server0
  for (size_t i = 0; i < jm.messages.size(); ++i) {
    const model::Message& m = jm.messages[i];
    EXPECT_TRUE(names.insert({m.src, m.dst, jm.key[i], jm.opnum[i]}).second) << "message " << i;
    waiting += !m.after.empty();
    bool after_a_push = false;
    for (uint32_t d : m.after) {
      ASSERT_LT(d, jm.messages.size());
      EXPECT_NE(d, i);
      after_a_push |= jm.messages[d].dst == server && jm.messages[d].src != server;
    }
    replies_waiting_for_pushes += m.src == server && after_a_push;
  }
  EXPECT_GT(waiting, jm.messages.size() / 2);
  EXPECT_GT(replies_waiting_for_pushes, 0u);
  // The model runs it (no cycle): every message is posted after what it waits for has arrived.
  model::Calibration c;
  c.link_rate_Bps = 1e9;
  c.base_latency_s = 5e-6;
  const model::Prediction p = model::predict(model::uniform_network(3, c), c, jm.messages);
  for (size_t i = 0; i < jm.messages.size(); ++i) {
    for (uint32_t d : jm.messages[i].after) {
      EXPECT_GE(p.messages[i].start_s + 1e-12, p.messages[d].finish_s + jm.messages[i].think_s);
    }
  }
}

TEST(ReplayJobMessages, EachMessageFollowsTheOneBeforeItOnItsChannel) {
  // The replay posts a rank's sends to one peer in timeline order; messages are numbered rank by
  // rank in timeline order, so each follows the last earlier message of its (src, dst).
  const trace::Job job = lenet(2, 1, 3);
  const RankMap map = RankMap::make(job, "");
  PlanOptions o;
  const JobMessages jm = job_messages(job, map, o, Copies::make(job, o.iterations));
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> last;
  for (uint32_t i = 0; i < jm.messages.size(); ++i) {
    const model::Message& m = jm.messages[i];
    const auto it = last.find({m.src, m.dst});
    EXPECT_EQ(m.follows, it == last.end() ? model::kNoMessage : it->second) << "message " << i;
    last[{m.src, m.dst}] = i;
  }
  // On the model, the order holds back messages whose dependencies were met earlier (LeNet's
  // small keys behind the large ones of the iteration before).
  model::Calibration c;
  c.link_rate_Bps = 12.5e6;
  c.base_latency_s = 5e-6;
  model::Network net = model::uniform_network(3, c);
  net.connections = true;
  const model::Prediction p = model::predict(net, c, jm.messages);
  std::vector<model::Message> free = jm.messages;
  for (model::Message& m : free) m.follows = model::kNoMessage;
  const model::Prediction q = model::predict(net, c, free);
  size_t held = 0;
  for (uint32_t i = 0; i < jm.messages.size(); ++i) {
    const uint32_t f = jm.messages[i].follows;
    if (f != model::kNoMessage) {
      EXPECT_GE(p.messages[i].start_s, p.messages[f].start_s);
    }
    held += p.messages[i].start_s > q.messages[i].start_s + 1e-3;
  }
  EXPECT_GT(held, 0u);
}

TEST(ReplayJobMessages, TimedModeWaitsForNothing) {
  const trace::Job job = lenet(2, 1, 2);
  const RankMap map = RankMap::make(job, "");
  PlanOptions o;
  o.mode = Mode::timed;
  const JobMessages jm = job_messages(job, map, o, Copies::make(job, 0));
  ASSERT_FALSE(jm.messages.empty());
  for (const model::Message& m : jm.messages) EXPECT_TRUE(m.after.empty());
}

}  // namespace
}  // namespace dlcnet::replay
