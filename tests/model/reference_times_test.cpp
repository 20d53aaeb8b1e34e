// The model's predictions on fixed seeded mixes against a reference file written by the model
// as it was before its speed-up (tests/data/model/reference_times.txt): every message's sent
// and finish times must agree within 1e-12 relative, so a faster model is the same model.
// With DLCNET_MODEL_WRITE_REFERENCE=FILE the test writes FILE instead (to make a new reference
// on purpose: the model's results changed and docs/model.md says why).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model/network.hpp"
#include "model/predict.hpp"
#include "model/workload_mix.hpp"

namespace dlcnet::model {
namespace {

struct Scenario {
  std::string name;
  MixSpec mix;
  bool connections = false, port = false;
};

std::vector<Scenario> scenarios() {
  MixSpec a;
  a.messages = 1200;
  a.hosts = 17;
  a.keys = 4;
  a.seed = 7;
  MixSpec bench;  // bench/model_speed.sh's mix, shorter
  bench.messages = 2000;
  MixSpec b = a;
  b.hosts = 9;
  b.seed = 11;
  b.background_load = 0.5;
  return {{"bench", bench, false, false},
          {"flows", a, false, false},
          {"connections", a, true, false},
          {"port", b, false, true},
          {"port-connections", b, true, true}};
}

Prediction run(const Scenario& s, std::vector<Message>& m) {
  m = workload_mix(s.mix);
  Calibration c;
  c.link_rate_Bps = s.mix.link_rate_Bps;
  c.base_latency_s = 2e-6;
  c.overhead_s = 1e-6;
  Network net = uniform_network(s.mix.hosts, c);
  net.connections = s.connections;
  if (s.port) net.port = BottleneckPort{0, c.link_rate_Bps / 2, 256 * 1024};
  return predict(net, c, m);
}

std::string line(const std::string& name, size_t i, const MessageTimes& t) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %zu %.17g %.17g", name.c_str(), i, t.sent_s, t.finish_s);
  return buf;
}

bool close(double want, double got) {
  return std::abs(want - got) <= 1e-12 * std::max({std::abs(want), std::abs(got), 1e-9});
}

TEST(ModelReferenceTimes, EveryMessageAsBeforeTheSpeedUp) {
  if (const char* out = std::getenv("DLCNET_MODEL_WRITE_REFERENCE")) {
    std::ofstream f(out);
    for (const Scenario& s : scenarios()) {
      std::vector<Message> m;
      const Prediction p = run(s, m);
      for (size_t i = 0; i < p.messages.size(); ++i) f << line(s.name, i, p.messages[i]) << '\n';
    }
    GTEST_SKIP() << "wrote " << out;
  }
  std::ifstream f(std::string(DLCNET_MODEL_DATA) + "/reference_times.txt");
  ASSERT_TRUE(f) << "no reference file in " << DLCNET_MODEL_DATA;
  for (const Scenario& s : scenarios()) {
    std::vector<Message> m;
    const Prediction p = run(s, m);
    for (size_t i = 0; i < p.messages.size(); ++i) {
      std::string text;
      ASSERT_TRUE(std::getline(f, text)) << s.name << ": reference ends at message " << i;
      std::istringstream in(text);
      std::string name;
      size_t index = 0;
      double sent = 0, finish = 0;
      in >> name >> index >> sent >> finish;
      ASSERT_EQ(name, s.name);
      ASSERT_EQ(index, i);
      ASSERT_TRUE(close(sent, p.messages[i].sent_s))
          << s.name << " message " << i << ": sent " << p.messages[i].sent_s << ", reference "
          << sent;
      ASSERT_TRUE(close(finish, p.messages[i].finish_s))
          << s.name << " message " << i << ": finish " << p.messages[i].finish_s << ", reference "
          << finish;
    }
  }
  std::string extra;
  EXPECT_FALSE(std::getline(f, extra)) << "the reference has more messages: " << extra;
}

}  // namespace
}  // namespace dlcnet::model
