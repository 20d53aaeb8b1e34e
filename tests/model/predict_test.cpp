// The model against cases computed by hand (S / B = 1 ms, latency 1 us, no headers unless
// said). Each comment derives the expected times.
#include "model/predict.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "model/network.hpp"
#include "tests/model/model_test_support.hpp"

namespace dlcnet::model {
namespace {

using namespace dlcnet::model::testing;

Prediction run(uint32_t hosts, const std::vector<Message>& m, const Calibration& c) {
  return predict(uniform_network(hosts, c), c, m);
}

TEST(ModelPredict, OneFlow) {
  // Alone: S / B on the wire, then the latency.
  const Prediction p = run(2, {msg(0, 1, kS)}, plain_calibration());
  ASSERT_EQ(p.messages.size(), 1u);
  expect_time(p.messages[0].start_s, 0);
  expect_time(p.messages[0].sent_s, sb(1));
  expect_time(p.messages[0].finish_s, sb(1) + kLatency);
  // Up link 0 and down link 1 carried S over the span S/B + latency.
  EXPECT_DOUBLE_EQ(p.links[0].bytes, kS);
  EXPECT_DOUBLE_EQ(p.links[2 + 1].bytes, kS);
  expect_time(p.links[0].utilisation, sb(1) / (sb(1) + kLatency));
  EXPECT_EQ(p.links[1].bytes, 0);
}

TEST(ModelPredict, OverheadAndHeaders) {
  // 2500 B in HPCC's packets: 3 packets of 48 B header, 2644 B on the wire; 3 us overhead
  // before the first byte.
  Calibration c = plain_calibration();
  c.header_bytes = 48;
  c.overhead_s = 3e-6;
  const Prediction p = run(2, {msg(0, 1, 2500, 1e-3)}, c);
  expect_time(p.messages[0].start_s, 1e-3);
  expect_time(p.messages[0].wire_s, 1e-3 + 3e-6);
  expect_time(p.messages[0].finish_s, 1e-3 + 3e-6 + 2644 / kRate + kLatency);
}

TEST(ModelPredict, EqualFlowsIntoOneDownLink) {
  // N flows of S into host 0 share its down link: B / N each, all end at N S / B.
  for (uint32_t n : {1u, 2u, 4u, 16u}) {
    std::vector<Message> m;
    for (uint32_t w = 1; w <= n; ++w) m.push_back(msg(w, 0, kS));
    const Prediction p = run(n + 1, m, plain_calibration());
    for (const MessageTimes& t : p.messages) expect_time(t.finish_s, sb(n) + kLatency);
  }
}

TEST(ModelPredict, EqualFlowsOfOnePair) {
  // Three flows of S on the same pair (one max-min class of weight 3): B / 3 each.
  const Prediction p = run(2, {msg(0, 1, kS), msg(0, 1, kS), msg(0, 1, kS)}, plain_calibration());
  for (const MessageTimes& t : p.messages) expect_time(t.finish_s, sb(3) + kLatency);
}

TEST(ModelPredict, ConnectionsServeTheirMessagesInOrder) {
  // Network::connections: hosts 1 and 2 send into host 0; host 1 posts two messages of S on
  // its one connection, host 2 one. The connections share the down link B/2 each (weights 1,
  // 1, not 2, 1): host 1's first message ends at 2 S/B with host 2's; its second then has the
  // link alone for its S: 3 S/B. As independent flows all three would end at 3 S/B.
  Calibration c = plain_calibration();
  Network n = uniform_network(3, c);
  n.connections = true;
  const std::vector<Message> m = {msg(1, 0, kS), msg(1, 0, kS), msg(2, 0, kS)};
  const Prediction p = predict(n, c, m);
  expect_time(p.messages[0].finish_s, sb(2) + kLatency);
  expect_time(p.messages[1].finish_s, sb(3) + kLatency);
  expect_time(p.messages[2].finish_s, sb(2) + kLatency);
  // A message posted later on a busy connection waits for the ones ahead of it: S at 0, S at
  // S/(2B) on the same pair, alone: the second ends at 2 S/B (it starts on the wire at S/B).
  Network one = uniform_network(2, c);
  one.connections = true;
  const std::vector<Message> m2 = {msg(0, 1, kS), msg(0, 1, kS, sb(0.5))};
  const Prediction q = predict(one, c, m2);
  expect_time(q.messages[0].finish_s, sb(1) + kLatency);
  expect_time(q.messages[1].finish_s, sb(2) + kLatency);
}

TEST(ModelPredict, UnequalSizesStartTogether) {
  // S, 2S, 3S from hosts 1, 2, 3 into host 0. B/3 each until the S flow ends at 3 S/B; the
  // two others have S and 2S left at B/2: the 2S flow ends 2 S/B later (5 S/B); the last
  // has S left alone: 6 S/B. Max-min order: smallest first.
  const Prediction p =
      run(4, {msg(3, 0, 3 * kS), msg(1, 0, kS), msg(2, 0, 2 * kS)}, plain_calibration());
  expect_time(p.messages[1].finish_s, sb(3) + kLatency);
  expect_time(p.messages[2].finish_s, sb(5) + kLatency);
  expect_time(p.messages[0].finish_s, sb(6) + kLatency);
}

TEST(ModelPredict, MaxMinIsNotAnEqualSplit) {
  // 1->0, 2->0, 3->0 share down 0 (B/3 each); 3->4 shares up 3 with 3->0, which uses only
  // B/3 of it: 3->4 gets the other 2B/3 and ends at S / (2B/3) = 1.5 S/B. The three into
  // host 0 keep B/3 (down 0 is their bottleneck) and end at 3 S/B.
  const Prediction p =
      run(5, {msg(1, 0, kS), msg(2, 0, kS), msg(3, 0, kS), msg(3, 4, kS)}, plain_calibration());
  expect_time(p.messages[3].finish_s, sb(1.5) + kLatency);
  for (int i = 0; i < 3; ++i) expect_time(p.messages[i].finish_s, sb(3) + kLatency);
}

TEST(ModelPredict, StaggeredStarts) {
  // A: 1->0, S at 0. B: 2->0, S at S/(2B), when A is half done. Then B/2 each: A's last S/2
  // takes S/B, A ends at 1.5 S/B; B has S/2 left then, alone at B: ends at 2 S/B.
  const Prediction p = run(3, {msg(1, 0, kS), msg(2, 0, kS, sb(0.5))}, plain_calibration());
  expect_time(p.messages[0].finish_s, sb(1.5) + kLatency);
  expect_time(p.messages[1].finish_s, sb(2) + kLatency);
}

TEST(ModelPredict, DependencyChainWithThinkTimes) {
  // m0: 0->1 at 0; m1: 1->2, T after m0 arrived; m2: 2->0, T after m1 arrived. With an
  // overhead o each leg takes o + S/B + latency.
  Calibration c = plain_calibration();
  c.overhead_s = 2e-6;
  const double think = 5e-6;
  std::vector<Message> m{msg(0, 1, kS), msg(1, 2, kS), msg(2, 0, kS)};
  m[1].after = {0};
  m[1].think_s = think;
  m[2].after = {1};
  m[2].think_s = think;
  const Prediction p = run(3, m, c);
  const double leg = c.overhead_s + sb(1) + kLatency;
  expect_time(p.messages[0].finish_s, leg);
  expect_time(p.messages[1].start_s, leg + think);
  expect_time(p.messages[1].finish_s, 2 * leg + think);
  expect_time(p.messages[2].start_s, 2 * leg + 2 * think);
  expect_time(p.messages[2].finish_s, 3 * leg + 2 * think);
}

TEST(ModelPredict, WaitsForTheLastOfItsDependencies) {
  // m2 waits for m0 (S) and m1 (2S), on separate pairs: posted at 2 S/B + latency + T.
  std::vector<Message> m{msg(0, 1, kS), msg(2, 3, 2 * kS), msg(1, 3, kS)};
  m[2].after = {0, 1};
  m[2].think_s = 1e-5;
  const Prediction p = run(4, m, plain_calibration());
  expect_time(p.messages[2].start_s, sb(2) + kLatency + 1e-5);
  expect_time(p.messages[2].finish_s, sb(3) + 2 * kLatency + 1e-5);
}

TEST(ModelPredict, DelaysOfTheirOwnPerDependencyAndAFloor) {
  // m2 waits for m0 (arrives at S/B + latency) with a delay of 3 ms of its own and for m1
  // (arrives at 2 S/B + latency) with none: m0's path is the later one (S/B = 1 ms), so m2 is
  // posted at S/B + latency + 3 ms, plus its think time.
  std::vector<Message> m{msg(0, 1, kS), msg(2, 3, 2 * kS), msg(1, 3, kS)};
  m[2].after = {0, 1};
  m[2].after_delay_s = {3e-3, 0};
  m[2].think_s = 1e-5;
  Prediction p = run(4, m, plain_calibration());
  expect_time(p.messages[2].start_s, sb(1) + kLatency + 3e-3 + 1e-5);
  // A floor later than both: posted at the floor plus its think time.
  m[2].not_before_s = 10e-3;
  p = run(4, m, plain_calibration());
  expect_time(p.messages[2].start_s, 10e-3 + 1e-5);
  // Delays that do not match the dependencies, or negative, are refused.
  m[2].after_delay_s = {1e-3};
  EXPECT_THROW(run(4, m, plain_calibration()), Error);
  m[2].after_delay_s = {1e-3, -1};
  EXPECT_THROW(run(4, m, plain_calibration()), Error);
}

TEST(ModelPredict, NotPostedBeforeTheMessageItFollows) {
  // m1 (0 -> 1) waits for m0 (1 -> 0, S): posted at S/B + latency + T. m2 (0 -> 1, S) could
  // start at 0 but follows m1 (a replay posts a peer's sends in order): posted with m1, and on
  // their connection behind it. m3 follows m2 with a later start of its own: posted at that.
  std::vector<Message> m{msg(1, 0, kS), msg(0, 1, 100), msg(0, 1, kS), msg(0, 1, 100, 5e-3)};
  m[1].after = {0};
  m[1].think_s = 1e-5;
  m[2].follows = 1;
  m[3].follows = 2;
  Calibration c = plain_calibration();
  Network n = uniform_network(2, c);
  n.connections = true;
  const Prediction p = predict(n, c, m);
  const double posted = sb(1) + kLatency + 1e-5;
  expect_time(p.messages[1].start_s, posted);
  expect_time(p.messages[2].start_s, posted);
  expect_time(p.messages[2].finish_s, posted + (100 + kS) / kRate + kLatency);
  expect_time(p.messages[3].start_s, 5e-3);
  // Following nothing of the input, itself, or a message another one follows: refused.
  for (const uint32_t bad : {4u, 3u, 1u}) {
    std::vector<Message> b = m;
    b[3].follows = bad;
    EXPECT_THROW(predict(n, c, b), Error) << bad;
  }
  // Following each other: never posted.
  std::vector<Message> loop{msg(0, 1, kS), msg(0, 1, kS)};
  loop[0].follows = 1;
  loop[1].follows = 0;
  EXPECT_THROW(predict(n, c, loop), Error);
}

TEST(ModelPredict, RejectsBadInput) {
  const Calibration c = plain_calibration();
  EXPECT_THROW(run(2, {msg(0, 2, kS)}, c), Error);  // host 2 of 2
  std::vector<Message> cycle{msg(0, 1, kS), msg(1, 0, kS)};
  cycle[0].after = {1};
  cycle[1].after = {0};
  try {
    run(2, cycle, c);
    FAIL() << "a cycle was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("never posted"), std::string::npos) << e.what();
  }
  std::vector<Message> missing{msg(0, 1, kS)};
  missing[0].after = {7};
  EXPECT_THROW(run(2, missing, c), Error);
}

}  // namespace
}  // namespace dlcnet::model
