// Measured against predicted from hand-made files: a flow map and an fct.txt whose errors are
// known give the known summary; an fct.txt that is not of the map's flow.txt is refused.
#include "compare/compare_report.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "core/error.hpp"
#include "flows/hpcc_fct.hpp"

namespace dlcnet::compare {
namespace {

// Four flows: 1->0 (sports 10000, 10001) and 2->0 (10000) in round 0, 1->0 (10002) in round 1.
// Measured one-way latencies 90, 190, 290, 390 us; the acknowledgement 10 us, so measured fct
// 100, 200, 300, 400 us. Starts 0, 0, 50 us, 1000 us.
const char* kMap =
    "# dlcnet flow map 1\n# tool test\n# group round\n# origin_ns 0\n"
    "# flow src dst sport size start_ns latency_ns bound_ns group key opnum\n"
    "0 1 0 10000 1000 0 90000 0 0 0 0\n"
    "1 2 0 10000 2000 0 190000 0 0 1 0\n"
    "2 1 0 10001 3000 50000 290000 0 0 2 0\n"
    "3 1 0 10002 4000 1000000 390000 0 1 3 1\n";

// Predicted fct: 110 (+10%), 180 (-10%), 330 (+10%), 400 (0%) us, in completion order. Node
// 0 is 0b000001, 1 is 0b000101, 2 is 0b000201.
const char* kFct =
    "0b000101 0b000001 10000 100 1000 0 110000 50000\n"
    "0b000201 0b000001 10000 100 2000 0 180000 50000\n"
    "0b000101 0b000001 10001 100 3000 50000 330000 50000\n"
    "0b000101 0b000001 10002 100 4000 1000000 400000 50000\n";

Comparison run(const std::string& map_text, const std::string& fct_text) {
  std::istringstream m(map_text), f(fct_text);
  const FlowMap map = read_flow_map(m, "m.map");
  const std::vector<FctRecord> fct = read_fct_txt(f, "fct.txt");
  return compare(map, "m.map", fct, "fct.txt", 10000);
}

TEST(Compare, KnownErrorsGiveTheKnownSummary) {
  const Comparison c = run(kMap, kFct);
  ASSERT_EQ(c.messages.count, 4u);
  EXPECT_NEAR(c.messages.mape_pct, 7.5, 1e-9);  // (10 + 10 + 10 + 0) / 4
  EXPECT_NEAR(c.messages.signed_error.min, -0.1, 1e-12);
  EXPECT_NEAR(c.messages.signed_error.max, 0.1, 1e-12);
  EXPECT_NEAR(c.messages.abs_error.max, 0.1, 1e-12);
  // Measured fct {100, 200, 300, 400}, predicted {110, 180, 330, 400}: the empirical CDFs
  // differ most just above 100 (0.25 against 0) and at 300 (0.75 against 0.5): 0.25.
  EXPECT_NEAR(c.messages.ks, 0.25, 1e-12);
  // Round 0: first post 0; last arrival measured max(90, 190, 50 + 290) = 340 us, predicted
  // max(100, 170, 50 + 320) = 370 us: +8.8%. Round 1: 390 against 390 us.
  ASSERT_EQ(c.groups.size(), 2u);
  EXPECT_NEAR(c.groups[0].measured_s, 340e-6, 1e-12);
  EXPECT_NEAR(c.groups[0].predicted_s, 370e-6, 1e-12);
  EXPECT_EQ(c.groups[0].messages, 3u);
  EXPECT_NEAR(c.groups[1].error(), 0, 1e-12);
  // The worst: the two +-10% flows of 1->0 and 2->0 first, the exact one last.
  EXPECT_EQ(c.messages.worst.back().sport, 10002u);
}

TEST(Compare, UnpredictedFlowsAreCountedNotCompared) {
  const std::string fct(kFct);
  const Comparison c = run(kMap, fct.substr(0, fct.rfind("0b000101")));
  EXPECT_EQ(c.messages.count, 3u);
  ASSERT_EQ(c.join.unpredicted.size(), 1u);
  EXPECT_EQ(c.join.unpredicted[0], 3u);
}

void expect_fct_error(const std::string& fct, const std::string& want) {
  try {
    run(kMap, fct);
    ADD_FAILURE() << "no error for " << fct;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
  }
}

TEST(Compare, AnFctOfAnotherFlowListIsRefused) {
  expect_fct_error("0b000101 0b000001 10009 100 1000 0 110000 50000\n",
                   "fct.txt:1: no flow 1 -> 0 with sport 10009");
  expect_fct_error("0b000101 0b000001 10000 100 1001 0 110000 50000\n", "fct.txt:1: field size");
  expect_fct_error("0b000101 0b000001 10000 100 1000 77 110000 50000\n",
                   "fct.txt:1: field start_ns");
  // Past int64 (compare_mutation seed 8796: a signed difference overflowed under UBSan).
  expect_fct_error("0b000101 0b000001 10000 100 1000 9223372036854775808 110000 50000\n",
                   "fct.txt:1: field start_ns");
  expect_fct_error(std::string(kFct) + "0b000101 0b000001 10000 100 1000 0 110000 50000\n",
                   "fct.txt: 5 flows, more than the flow map m.map holds (4)");
  const std::string fct(kFct);
  expect_fct_error(
      fct.substr(0, fct.rfind("0b000101")) + "0b000101 0b000001 10000 100 1000 0 110000 50000\n",
      "fct.txt:4: flow 0 (sport 10000) is predicted twice");
}

// A pair with more than 65536 flows: HPCC's 16-bit ports come round (flows/hpcc_fct.hpp), so
// flow 0 and flow 65536 share (src, dst, sport 10000); each fct.txt line joins the one it
// started with, in any order.
TEST(Compare, PortsThatCameRoundJoinByTheirStart) {
  std::string map =
      "# dlcnet flow map 1\n# tool test\n# group round\n# origin_ns 0\n"
      "# flow src dst sport size start_ns latency_ns bound_ns group key opnum\n";
  for (uint32_t i = 0; i <= 65536; ++i) {
    map += std::to_string(i) + " 1 0 " + std::to_string(hpcc_sport(i)) + " 1000 " +
           std::to_string(uint64_t{i} * 1000) + " " + (i == 0 ? "90000" : "190000") + " 0 0 0 0\n";
  }
  const Comparison c = run(map,
                           "0b000101 0b000001 10000 100 1000 65536000 200000 50000\n"
                           "0b000101 0b000001 10000 100 1000 0 100000 50000\n");
  ASSERT_EQ(c.messages.count, 2u);
  EXPECT_NEAR(c.messages.abs_error.max, 0, 1e-12);  // each against its own measurement
  EXPECT_EQ(c.join.unpredicted.size(), 65535u);
}

// A port off HPCC's count names the map's line: the join could not place its flow.
TEST(Compare, AFlowMapPortOffTheCountIsRefused) {
  std::string map(kMap);
  map.replace(map.find("10001"), 5, "10007");
  try {
    run(map, kFct);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("m.map:8: field sport: 10007, expected 10001"),
              std::string::npos)
        << e.what();
  }
}

TEST(Compare, AFlowMapPortPast16BitsIsRefused) {
  std::string map(kMap);
  map.replace(map.find("10002"), 5, "65536");
  try {
    run(map, kFct);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("m.map:9: field sport: 65536, expected 10002"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace dlcnet::compare
