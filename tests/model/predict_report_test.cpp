// dlc-compare predict's network from its options and its JSON summary: hosts from the flows or
// --hosts (too few named), sharing, the bottleneck port's defaults, and the summary's fields.
#include "model/predict_report.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "model/hpcc_prediction.hpp"
#include "model/predict.hpp"
#include "tests/model/model_test_support.hpp"

namespace dlcnet::model {
namespace {

using namespace dlcnet::model::testing;

std::vector<HpccFlow> two_flows() {
  HpccFlow a;
  a.src = 0;
  a.dst = 3;
  a.size = 1000;
  HpccFlow b;
  b.src = 2;
  b.dst = 1;
  b.size = 2000;
  b.start_s = 1e-3;
  return {a, b};
}

TEST(ModelPredictReport, HostsFromTheFlowsOrGiven) {
  const Calibration c = plain_calibration();
  NetworkRequest r;
  const Network n = network_for(r, two_flows(), "flow.txt", c);
  EXPECT_EQ(n.hosts(), 4u);
  EXPECT_FALSE(n.connections);
  EXPECT_FALSE(n.port);
  r.hosts = 6;
  EXPECT_EQ(network_for(r, two_flows(), "flow.txt", c).hosts(), 6u);
  EXPECT_EQ(network_for(NetworkRequest{}, {}, "empty.txt", c).hosts(), 1u);
  r.hosts = 3;
  try {
    network_for(r, two_flows(), "flow.txt", c);
    FAIL() << "three hosts accepted for host 3";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--hosts 3: flow.txt names host 3");
  }
}

TEST(ModelPredictReport, SharingAndPort) {
  const Calibration c = plain_calibration();
  NetworkRequest r;
  r.sharing = "connection";
  r.port_host = 3;
  r.port_buffer_bytes = 5000;
  Network n = network_for(r, two_flows(), "flow.txt", c);
  EXPECT_TRUE(n.connections);
  ASSERT_TRUE(n.port);
  EXPECT_EQ(n.port->host, 3u);
  EXPECT_DOUBLE_EQ(n.port->rate_Bps, kRate);  // the link rate unless given
  EXPECT_DOUBLE_EQ(n.port->buffer_bytes, 5000);
  r.port_rate_Bps = 1e8;
  n = network_for(r, two_flows(), "flow.txt", c);
  EXPECT_DOUBLE_EQ(n.port->rate_Bps, 1e8);
}

TEST(ModelPredictReport, Summary) {
  const Calibration c = plain_calibration();
  const std::vector<HpccFlow> flows = two_flows();
  NetworkRequest r;
  const Network n = network_for(r, flows, "flow.txt", c);
  const Prediction p = predict(n, c, messages_from_flows(flows));
  const nlohmann::json doc =
      predict_report({{"tool", "test"}}, c, flows.size(), r.sharing, n, p, "fct.txt");
  EXPECT_EQ(doc["context"]["tool"], "test");
  EXPECT_EQ(doc["calibration"], to_json(c));
  EXPECT_EQ(doc["flows"], 2);
  EXPECT_EQ(doc["sharing"], "flow");
  EXPECT_EQ(doc["hosts"], 4);
  EXPECT_DOUBLE_EQ(doc["begin_s"].get<double>(), p.begin_s);
  EXPECT_DOUBLE_EQ(doc["end_s"].get<double>(), p.end_s);
  EXPECT_EQ(doc["events"], p.events);
  EXPECT_EQ(doc["solves"], p.solves);
  ASSERT_EQ(doc["links"].size(), p.links.size());
  EXPECT_EQ(doc["links"][0]["link"], p.links[0].name);
  EXPECT_DOUBLE_EQ(doc["links"][0]["bytes"].get<double>(), p.links[0].bytes);
  EXPECT_FALSE(doc.contains("queue_max_bytes"));  // no port
  EXPECT_EQ(doc["files"]["fct"], "fct.txt");
  EXPECT_EQ(doc.size(), 11u);
}

TEST(ModelPredictReport, SummaryWithAPortHasItsQueue) {
  const Calibration c = plain_calibration();
  const std::vector<HpccFlow> flows = two_flows();
  NetworkRequest r;
  r.port_host = 3;
  r.port_buffer_bytes = 1e6;
  const Network n = network_for(r, flows, "flow.txt", c);
  const Prediction p = predict(n, c, messages_from_flows(flows));
  const nlohmann::json doc = predict_report({}, c, flows.size(), r.sharing, n, p, "f");
  EXPECT_DOUBLE_EQ(doc["queue_max_bytes"].get<double>(), p.queue_max_bytes);
}

}  // namespace
}  // namespace dlcnet::model
