// The bottleneck port's fluid queue, computed by hand (S / B = 1 ms, no headers).
#include <gtest/gtest.h>

#include "model/network.hpp"
#include "model/predict.hpp"
#include "tests/model/model_test_support.hpp"

namespace dlcnet::model {
namespace {

using namespace dlcnet::model::testing;

void expect_near(double got, double want) {
  EXPECT_NEAR(got, want, 1e-9 * (1 + want));
}

Prediction incast(double port_rate, double buffer, uint32_t senders = 2) {
  const Calibration c = plain_calibration();
  Network n = uniform_network(senders + 1, c);
  n.port = BottleneckPort{0, port_rate, buffer};
  std::vector<Message> m;
  for (uint32_t w = 1; w <= senders; ++w) m.push_back(msg(w, 0, kS));
  return predict(n, c, m);
}

void expect_trace(const std::vector<QueuePoint>& got, const std::vector<QueuePoint>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    expect_near(got[i].t_s, want[i].t_s);
    expect_near(got[i].bytes, want[i].bytes);
  }
}

TEST(ModelQueue, IncastIntoALargeBuffer) {
  // Two senders at B each (their up links) into a port draining at B: the queue grows at B
  // until both have sent S at S/B (queue S), then drains at B to 0 at 2 S/B. Both last bytes
  // enter at S/B behind a queue of S: they arrive at 2 S/B + latency, as max-min says.
  const Prediction p = incast(kRate, 1e12);
  for (const MessageTimes& t : p.messages) {
    expect_near(t.sent_s, sb(1));
    expect_near(t.finish_s, sb(2) + kLatency);
  }
  expect_trace(p.queue, {{0, 0}, {sb(1), kS}, {sb(2), 0}});
  expect_near(p.queue_max_bytes, kS);
}

TEST(ModelQueue, AFullBufferHoldsTheSendersBack) {
  // Buffer S/2: full at S/(2B) (growing at B), each sender has sent S/2. Lossless: the port
  // limits them to B/2 each, the queue stays at S/2; their last S/2 takes S/B: sent at
  // 1.5 S/B, behind S/2 of queue (0.5 S/B): they arrive at 2 S/B + latency. The queue then
  // drains at B: empty at 2 S/B.
  const Prediction p = incast(kRate, kS / 2);
  for (const MessageTimes& t : p.messages) {
    expect_near(t.sent_s, sb(1.5));
    expect_near(t.finish_s, sb(2) + kLatency);
  }
  expect_trace(p.queue, {{0, 0}, {sb(0.5), kS / 2}, {sb(1.5), kS / 2}, {sb(2), 0}});
}

TEST(ModelQueue, NoBufferIsAPlainLink) {
  // Buffer 0: the port is one more max-min link. Three senders into a port at B/2: each gets
  // B/6, all end at 6 S/B.
  const Prediction p = incast(kRate / 2, 0, 3);
  for (const MessageTimes& t : p.messages) expect_near(t.finish_s, sb(6) + kLatency);
  expect_near(p.queue_max_bytes, 0);
}

TEST(ModelQueue, SlowPortOneSender) {
  // One sender at B into a port at B/2: sent at S/B with S/2 queued, which takes S/B more.
  const Prediction p = incast(kRate / 2, 1e12, 1);
  expect_near(p.messages[0].sent_s, sb(1));
  expect_near(p.messages[0].finish_s, sb(2) + kLatency);
  expect_trace(p.queue, {{0, 0}, {sb(1), kS / 2}, {sb(2), 0}});
  // The port carried S; over the span 2 S/B + latency at B/2 that is about full use.
  expect_near(p.links.back().bytes, kS);
  EXPECT_EQ(p.links.back().name, "port 0");
}

}  // namespace
}  // namespace dlcnet::model
