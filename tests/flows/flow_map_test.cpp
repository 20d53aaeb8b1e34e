// The flow map and flow.txt export: written and read back, sports as HPCC numbers them, starts
// from the first post, and malformed maps named by file, line and field.
#include "flows/flow_map.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <sstream>

#include "core/error.hpp"
#include "flows/flow_export.hpp"
#include "flows/hpcc_fct.hpp"
#include "flows/hpcc_flow.hpp"

namespace dlcnet {
namespace {

std::vector<Flow> three_flows() {
  // Posted out of order on rank 0's clock: (1->0 at 1000.4 ns), (2->0 at 500), (1->0 at 700).
  return {Flow{1, 0, 5, 9, 4096, 1000.4, 2000, 10}, Flow{2, 0, 6, 9, 100, 500, 800.5, 10},
          Flow{1, 0, 7, 9, 65536, 700, 90000, 12}};
}

TEST(FlowMap, ExportOrdersByStartAndNumbersPortsPerPair) {
  const std::vector<Flow> flows = three_flows();
  const std::vector<int32_t> groups = {3, -1, 4};
  const FlowMap m = flow_map_of(flows, groups, "test", "round");
  ASSERT_EQ(m.flows.size(), 3u);
  EXPECT_DOUBLE_EQ(m.origin_ns, 500);
  // In start order: 2->0 (0 ns), 1->0 (200 ns, sport 10000), 1->0 (500 ns, sport 10001).
  EXPECT_EQ(m.flows[0].src, 2u);
  EXPECT_EQ(m.flows[0].sport, 10000u);
  EXPECT_EQ(m.flows[0].start_ns, 0u);
  EXPECT_EQ(m.flows[0].group, -1);
  EXPECT_EQ(m.flows[1].src, 1u);
  EXPECT_EQ(m.flows[1].sport, 10000u);
  EXPECT_EQ(m.flows[1].start_ns, 200u);
  EXPECT_EQ(m.flows[1].key, 7);
  EXPECT_EQ(m.flows[1].group, 4);
  EXPECT_EQ(m.flows[2].sport, 10001u);
  EXPECT_EQ(m.flows[2].start_ns, 500u);  // 1000.4 - 500, rounded
  EXPECT_DOUBLE_EQ(m.flows[2].latency_ns, 2000);
}

// HPCC numbers a pair's flows from port 10000 in 16 bits: the 55537th's port is 0.
TEST(FlowMap, PortsComeRoundAsHpccsSixteenBits) {
  EXPECT_EQ(hpcc_sport(0), 10000u);
  EXPECT_EQ(hpcc_sport(55535), 65535u);
  EXPECT_EQ(hpcc_sport(55536), 0u);
  std::vector<Flow> flows;
  for (int i = 0; i < 55538; ++i) flows.push_back(Flow{1, 0, i, 0, 64, 1000.0 * i, 500, 0});
  const FlowMap m = flow_map_of(flows, {}, "test", "round");
  EXPECT_EQ(m.flows[55535].sport, 65535u);
  EXPECT_EQ(m.flows[55536].sport, 0u);
  EXPECT_EQ(m.flows[55537].sport, 1u);
  std::stringstream s;
  write_flow_map(s, m);
  EXPECT_EQ(read_flow_map(s, "m.map").flows[55537].sport, 1u);
}

TEST(FlowMap, WrittenAndReadBack) {
  const FlowMap m = flow_map_of(three_flows(), {}, "dlc-bench fanin", "round");
  std::stringstream s;
  write_flow_map(s, m);
  const FlowMap r = read_flow_map(s, "m.map");
  EXPECT_EQ(r.tool, "dlc-bench fanin");
  EXPECT_EQ(r.group_kind, "round");
  EXPECT_DOUBLE_EQ(r.origin_ns, 500);
  ASSERT_EQ(r.flows.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r.flows[i].flow, i);
    EXPECT_EQ(r.flows[i].src, m.flows[i].src);
    EXPECT_EQ(r.flows[i].sport, m.flows[i].sport);
    EXPECT_EQ(r.flows[i].size, m.flows[i].size);
    EXPECT_EQ(r.flows[i].start_ns, m.flows[i].start_ns);
    EXPECT_DOUBLE_EQ(r.flows[i].latency_ns, m.flows[i].latency_ns);
    EXPECT_EQ(r.flows[i].group, -1);
  }
}

TEST(FlowMap, FlowTxtMatchesTheMap) {
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/flow_map_test.txt";
  const FlowMap m = flow_map_of(three_flows(), {}, "t", "");
  FlowExport(path).write(m);
  const std::vector<HpccFlow> f = read_flow_txt(path);
  const FlowMap r = read_flow_map(flow_map_path(path));
  ASSERT_EQ(f.size(), r.flows.size());
  for (size_t i = 0; i < f.size(); ++i) {
    EXPECT_EQ(f[i].src, r.flows[i].src);
    EXPECT_EQ(f[i].dst, r.flows[i].dst);
    EXPECT_EQ(f[i].size, r.flows[i].size);
    EXPECT_DOUBLE_EQ(f[i].start_s * 1e9, static_cast<double>(r.flows[i].start_ns));
  }
}

void expect_map_error(const std::string& text, const std::string& want) {
  std::istringstream in(text);
  try {
    read_flow_map(in, "bad.map");
    ADD_FAILURE() << "no error for: " << text;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
  }
}

TEST(FlowMap, MalformedMapsNameFileLineAndField) {
  const std::string head = "# dlcnet flow map 1\n# tool t\n# group round\n# origin_ns 0\n";
  // The header's line is named (a BOM or a lost first line: issue 31's mutation test).
  expect_map_error("0 1 0 10000 5 0 1 0 -1 0 0\n", "bad.map:1: not a dlcnet flow map");
  expect_map_error("\xEF\xBB\xBF" + head, "bad.map:1: not a dlcnet flow map");
  expect_map_error("", "bad.map: empty: not a dlcnet flow map");
  expect_map_error("# dlcnet flow map 7\n0 1 0 10000 5 0 1 0 -1 0 0\n",
                   "bad.map:1: \"flow map 7\": this dlc-compare reads version 1");
  for (const char* origin : {"[]", "nan", "1e400", "12abc"}) {
    expect_map_error("# dlcnet flow map 1\n# origin_ns " + std::string(origin) + "\n" +
                         "0 1 0 10000 5 0 1 0 -1 0 0\n",
                     "bad.map: field origin_ns (the header's): '" + std::string(origin) + "'");
  }
  expect_map_error(head + "0 1 0 10000 5x 0 1 0 -1 0 0\n", "bad.map:5: field size");
  expect_map_error(head + "0 1 0 10000 5 0 1 0 -1 0\n", "bad.map:5: field opnum: missing");
  expect_map_error(head + "1 1 0 10000 5 0 1 0 -1 0 0\n", "bad.map:5: field flow");
  expect_map_error(head + "0 1 0 10000 5 9 1 0 -1 0 0\n1 1 0 10001 5 3 1 0 -1 0 0\n",
                   "bad.map:6: field start_ns");
  expect_map_error(head + "0 1 0 10000 5 0 nan 0 -1 0 0\n", "bad.map:5: field latency_ns");
  expect_map_error(head + "0 1 0 10000 5 0 1 0 -1 0 0 7\n", "bad.map:5: more fields");
}

// A special file gets no sibling: --export-flows /dev/null made /dev/null.map (issue 31).
TEST(FlowExport, RefusesASpecialFileBeforeWritingItsMap) {
  try {
    FlowExport x("/dev/null");
    FAIL() << "accepted /dev/null";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--export-flows /dev/null: not a regular file"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NE(::access("/dev/null.map", F_OK), 0);
}

}  // namespace
}  // namespace dlcnet
