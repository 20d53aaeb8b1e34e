// The model on the namespace star's network (model/star_network.hpp): only the switch's shaped
// ports toward the hosts limit a rate; the hosts' up links are veths. Times as in
// predict_test.cpp: S / B = 1 ms, latency 1 us, no headers.
#include "model/star_network.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "model/predict.hpp"
#include "tests/model/model_test_support.hpp"

namespace dlcnet::model {
namespace {

using namespace dlcnet::model::testing;
using nlohmann::json;

StarPorts every_port() {
  StarPorts p;
  p.all_shaped = true;
  return p;
}

TEST(ModelStarNetwork, OneHostToTwoPeersEachAtThePortRate) {
  // Host 0 sends S to host 1 and S to host 2 at once (a server's two pulls). The star shapes
  // the ports toward 1 and 2, not host 0's veth: each flow has its port's B alone and ends at
  // S / B. With host 0's up link at B (uniform_network) they would share it: 2 S / B.
  const Calibration c = plain_calibration();
  const std::vector<Message> m = {msg(0, 1, kS), msg(0, 2, kS)};
  const Prediction p = predict(star_network(3, c, every_port()), c, m);
  for (const MessageTimes& t : p.messages) expect_time(t.finish_s, sb(1) + kLatency);
  const Prediction shaped_up = predict(uniform_network(3, c), c, m);
  for (const MessageTimes& t : shaped_up.messages) expect_time(t.finish_s, sb(2) + kLatency);
}

TEST(ModelStarNetwork, FlowsIntoOneShapedPortShareIt) {
  // Hosts 1 and 2 into host 0: its port is the bottleneck either way, B / 2 each: 2 S / B.
  const Calibration c = plain_calibration();
  for (const bool all : {false, true}) {
    StarPorts ports;
    ports.all_shaped = all;
    const Prediction p =
        predict(star_network(3, c, ports), c, std::vector<Message>{msg(1, 0, kS), msg(2, 0, kS)});
    for (const MessageTimes& t : p.messages) expect_time(t.finish_s, sb(2) + kLatency);
  }
}

TEST(ModelStarNetwork, UnshapedPortsRunAtAVethsSpeed) {
  // The tbf only toward rank 0 (shaped_ports "p0"): 1 -> 2 crosses no shaped port and runs at
  // kStarVethRateBps; 1 -> 0 at the calibration's rate.
  const Calibration c = plain_calibration();
  const Network n = star_network(3, c, StarPorts{});
  EXPECT_EQ(n.down_Bps[0], kRate);
  EXPECT_EQ(n.down_Bps[2], kStarVethRateBps);
  EXPECT_EQ(n.up_Bps[0], kStarVethRateBps);
  const Prediction p = predict(n, c, std::vector<Message>{msg(1, 2, kS), msg(2, 0, kS)});
  expect_time(p.messages[0].finish_s, kS / kStarVethRateBps + kLatency);
  expect_time(p.messages[1].finish_s, sb(1) + kLatency);
}

json run_on_star(const std::string& shaped, size_t hosts) {
  json star = {{"ports", "fifo"}, {"shaped_ports", shaped}, {"hosts", json::array()}};
  for (size_t h = 0; h < hosts; ++h) star["hosts"].push_back({{"dev", "h" + std::to_string(h)}});
  return {{"context", {{"star", star}}}};
}

std::string refusal(const json& doc, uint32_t hosts) {
  try {
    star_network_from_run(doc, "run.json", hosts, plain_calibration());
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ModelStarNetwork, ReadFromTheRunsStarDescription) {
  const Network all =
      star_network_from_run(run_on_star("all", 3), "run.json", 3, plain_calibration());
  EXPECT_EQ(all.down_Bps[2], kRate);
  EXPECT_EQ(all.up_Bps[2], kStarVethRateBps);
  const Network p0 =
      star_network_from_run(run_on_star("p0", 3), "run.json", 3, plain_calibration());
  EXPECT_EQ(p0.down_Bps[0], kRate);
  EXPECT_EQ(p0.down_Bps[1], kStarVethRateBps);
}

TEST(ModelStarNetwork, BadDescriptionsNamedByField) {
  EXPECT_EQ(refusal(json{{"context", json::object()}}, 2),
            "run.json: context.star: missing: the run did not run on a namespace star "
            "(scripts/netns-star.sh)");
  EXPECT_EQ(refusal(json::array(), 2),
            "run.json: context: missing: not a dlcnet tool's JSON report");
  EXPECT_EQ(refusal(run_on_star("p1", 3), 3),
            "run.json: context.star.shaped_ports: 'p1': p0 or all");
  json no_ports = run_on_star("all", 3);
  no_ports["context"]["star"].erase("ports");
  EXPECT_EQ(refusal(no_ports, 3), "run.json: context.star.ports: missing");
  EXPECT_EQ(refusal(run_on_star("all", 2), 3),
            "run.json: context.star.hosts: 2 hosts, the job has 3 ranks");
  EXPECT_EQ(refusal(json{{"context", {{"star", {{"error", "x"}}}}}}, 2),
            "run.json: context.star: unreadable description");
}

}  // namespace
}  // namespace dlcnet::model
