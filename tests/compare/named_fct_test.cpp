// A job's prediction named after a flow map: sports by (src, dst, key, opnum), starts from the
// first post, lines by completion, unnamed messages counted and left out.
#include "compare/named_fct.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "model/hpcc_prediction.hpp"

namespace dlcnet::compare {
namespace {

MappedFlow mapped(uint32_t src, uint32_t dst, uint32_t sport, int32_t key, int32_t opnum) {
  MappedFlow f;
  f.src = src;
  f.dst = dst;
  f.sport = sport;
  f.key = key;
  f.opnum = opnum;
  return f;
}

model::Message message(uint32_t src, uint32_t dst, uint64_t bytes) {
  model::Message m;
  m.src = src;
  m.dst = dst;
  m.bytes = bytes;
  return m;
}

model::MessageTimes times(double start_s, double finish_s) {
  model::MessageTimes t;
  t.start_s = start_s;
  t.finish_s = finish_s;
  return t;
}

TEST(CompareNamedFct, JoinsShiftsAndSortsByCompletion) {
  FlowMap like;
  like.flows = {mapped(1, 0, 10000, 7, 0), mapped(1, 0, 10001, 7, 1), mapped(2, 0, 10000, 8, 0)};
  // Message 0: 1->0 key 7 opnum 1; 1: 2->0 key 9 (not in the map); 2: 2->0 key 8; 3: 1->0 key 7
  // opnum 0.
  const std::vector<model::Message> messages = {message(1, 0, 100), message(2, 0, 200),
                                                message(2, 0, 300), message(1, 0, 400)};
  const std::vector<int32_t> key = {7, 9, 8, 7}, opnum = {1, 0, 0, 0};
  model::Prediction p;
  // Posted at 2, 1.5, 3 and 2.5 s; finished 5, 1.6, 3.5 and 3 s.
  p.messages = {times(2, 5), times(1.5, 1.6), times(3, 3.5), times(2.5, 3)};
  model::Calibration c;
  c.link_rate_Bps = 1e9;  // a calibration's rate (0, the default, gave an infinite standalone fct)
  const NamedFct named = name_prediction(like, messages, key, opnum, p, 0.25, c);
  EXPECT_DOUBLE_EQ(named.origin_s, 1.5);  // the unnamed message's post counts too
  EXPECT_EQ(named.unnamed, 1u);
  ASSERT_EQ(named.records.size(), 3u);
  // Completion (start + fct, from the origin): message 3 at 1.75 s, 2 at 2.25 s, 0 at 3.75 s.
  const FctRecord& a = named.records[0];
  EXPECT_EQ(a.sip, hpcc_node_ip(1));
  EXPECT_EQ(a.dip, hpcc_node_ip(0));
  EXPECT_EQ(a.sport, 10000u);
  EXPECT_EQ(a.dport, 100u);
  EXPECT_EQ(a.size, 400u);
  EXPECT_EQ(a.start_ns, 1'000'000'000u);
  EXPECT_EQ(a.fct_ns, 750'000'000u);
  EXPECT_EQ(a.standalone_ns,
            static_cast<uint64_t>(std::llround(model::standalone_fct_s(400, c) * 1e9)));
  const FctRecord& b = named.records[1];
  EXPECT_EQ(b.sip, hpcc_node_ip(2));
  EXPECT_EQ(b.sport, 10000u);
  EXPECT_EQ(b.size, 300u);
  EXPECT_EQ(b.start_ns, 1'500'000'000u);
  EXPECT_EQ(b.fct_ns, 750'000'000u);
  const FctRecord& d = named.records[2];
  EXPECT_EQ(d.sport, 10001u);
  EXPECT_EQ(d.size, 100u);
  EXPECT_EQ(d.start_ns, 500'000'000u);
  EXPECT_EQ(d.fct_ns, 3'250'000'000u);
}

TEST(CompareNamedFct, TiesKeepTheMessagesOrderAndNothingPredictedIsEmpty) {
  FlowMap like;
  like.flows = {mapped(0, 1, 10000, 1, 0), mapped(0, 1, 10001, 1, 1)};
  const std::vector<model::Message> messages = {message(0, 1, 10), message(0, 1, 20)};
  const std::vector<int32_t> key = {1, 1}, opnum = {1, 0};
  model::Prediction p;
  p.messages = {times(1, 2), times(1, 2)};
  model::Calibration c;
  c.link_rate_Bps = 1e9;
  const NamedFct named = name_prediction(like, messages, key, opnum, p, 0, c);
  ASSERT_EQ(named.records.size(), 2u);
  EXPECT_EQ(named.records[0].sport, 10001u);
  EXPECT_EQ(named.records[1].sport, 10000u);
  EXPECT_EQ(named.records[0].start_ns, 0u);

  const NamedFct none = name_prediction(like, {}, {}, {}, model::Prediction{}, 0, {});
  EXPECT_TRUE(none.records.empty());
  EXPECT_EQ(none.unnamed, 0u);
  EXPECT_DOUBLE_EQ(none.origin_s, 0);
}

}  // namespace
}  // namespace dlcnet::compare
