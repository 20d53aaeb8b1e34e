// The model on seeded mixes of a dependency-driven job and background flows: what must hold
// whatever the exact times (no message faster than alone, no link carrying more than its rate
// over the span, dependencies respected, the queue within its buffer).
#include <gtest/gtest.h>

#include <algorithm>

#include "model/network.hpp"
#include "model/predict.hpp"
#include "model/workload_mix.hpp"

namespace dlcnet::model {
namespace {

void check_invariants(const Network& net, const Calibration& c, const std::vector<Message>& m,
                      const Prediction& p) {
  ASSERT_EQ(p.messages.size(), m.size());
  const double eps = 1e-12;
  for (size_t i = 0; i < m.size(); ++i) {
    const MessageTimes& t = p.messages[i];
    const double alone =
        c.wire_bytes(m[i].bytes) / std::min(net.up_Bps[m[i].src], net.down_Bps[m[i].dst]);
    ASSERT_GE(t.sent_s - t.wire_s, alone * (1 - 1e-9) - eps) << "message " << i;
    ASSERT_GE(t.finish_s, t.sent_s + net.latency_s - eps) << "message " << i;
    ASSERT_NEAR(t.wire_s - t.start_s, c.overhead_for(m[i].bytes), eps);
    for (uint32_t a : m[i].after)
      ASSERT_GE(t.start_s, p.messages[a].finish_s + m[i].think_s - eps) << "message " << i;
  }
  for (const LinkUse& l : p.links) ASSERT_LE(l.utilisation, 1 + 1e-9) << l.name;
}

TEST(ModelInvariants, SeededMixes) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    MixSpec s;
    s.messages = 4000;
    s.hosts = 5 + static_cast<uint32_t>(seed);
    s.keys = 4;
    s.seed = seed;
    const std::vector<Message> m = workload_mix(s);
    Calibration c;
    c.link_rate_Bps = s.link_rate_Bps;
    c.base_latency_s = 2e-6;
    c.overhead_s = 1e-6;
    Network net = uniform_network(s.hosts, c);
    check_invariants(net, c, m, predict(net, c, m));
    // The same through a slower port with a buffer towards the server.
    net.port = BottleneckPort{0, c.link_rate_Bps / 2, 256 * 1024};
    const Prediction p = predict(net, c, m);
    check_invariants(net, c, m, p);
    EXPECT_LE(p.queue_max_bytes, 256 * 1024 + 1e-6);
    EXPECT_GT(p.queue_max_bytes, 0);
  }
}

}  // namespace
}  // namespace dlcnet::model
