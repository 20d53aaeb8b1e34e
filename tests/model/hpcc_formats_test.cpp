// HPCC's flow.txt, fct.txt and topology.txt: written, read back, and malformed files rejected
// with the file, the line and the field.
#include <gtest/gtest.h>

#include <sstream>

#include "core/error.hpp"
#include "flows/hpcc_flow.hpp"
#include "model/hpcc_prediction.hpp"
#include "model/hpcc_topology.hpp"
#include "model/network.hpp"
#include "model/predict.hpp"
#include "tests/model/model_test_support.hpp"

namespace dlcnet::model {
namespace {

using namespace dlcnet::model::testing;

HpccFlow flow(uint32_t src, uint32_t dst, uint64_t size, double start, uint32_t dport = 100) {
  return HpccFlow{src, dst, 3, dport, size, start};
}

// The message of the Error `f` throws.
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string flow_error(const std::string& text) {
  return error_of([&] {
    std::istringstream in(text);
    read_flow_txt(in, "flows.txt");
  });
}

std::string fct_error(const std::string& text) {
  return error_of([&] {
    std::istringstream in(text);
    read_fct_txt(in, "fct.txt");
  });
}

#define EXPECT_STARTS_WITH(text, prefix) \
  EXPECT_EQ((text).substr(0, std::string(prefix).size()), prefix) << (text)

TEST(ModelFlowTxt, WrittenInStartOrderAndReadBack) {
  const std::vector<HpccFlow> flows{flow(2, 0, 65536, 0.000002, 200), flow(0, 1, 1000, 0),
                                    flow(1, 0, 1, 1.5)};
  std::ostringstream out;
  write_flow_txt(out, flows);
  EXPECT_EQ(out.str(),
            "3\n"
            "0 1 3 100 1000 0.000000000\n"
            "2 0 3 200 65536 0.000002000\n"
            "1 0 3 100 1 1.500000000\n");
  std::istringstream in(out.str());
  const std::vector<HpccFlow> back = read_flow_txt(in, "flows.txt");
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[1].src, 2u);
  EXPECT_EQ(back[1].dport, 200u);
  EXPECT_EQ(back[1].size, 65536u);
  EXPECT_DOUBLE_EQ(back[1].start_s, 0.000002);
  EXPECT_DOUBLE_EQ(back[2].start_s, 1.5);
  EXPECT_EQ(back[2].pg, 3u);
}

TEST(ModelFlowTxt, MalformedLinesNameFileLineAndField) {
  EXPECT_EQ(flow_error("2\n0 1 3 100 1000 0\n0 1 3 100 12x 0.1\n"),
            "flows.txt:3: field size: \"12x\" is not a whole number");
  EXPECT_EQ(flow_error("1\n0 1 3 100 1000\n"), "flows.txt:2: field start_s: missing");
  EXPECT_EQ(flow_error("1\n-1 1 3 100 1000 0\n"),
            "flows.txt:2: field src: \"-1\" is not a whole number");
  EXPECT_EQ(flow_error("1\n0 1 3 100 1000 nan\n"),
            "flows.txt:2: field start_s: \"nan\" is not a number");
  EXPECT_STARTS_WITH(flow_error("1\n0 1 3 100 1000 0 9\n"), "flows.txt:2: more fields than");
  EXPECT_STARTS_WITH(flow_error("2\n0 1 3 100 1000 0.5\n0 1 3 100 1000 0.1\n"),
                     "flows.txt:3: field start_s: starts before the previous line's flow");
  EXPECT_EQ(flow_error("3\n0 1 3 100 1000 0\n"),
            "flows.txt:1: the first line says 3 flows, the file has 1");
  EXPECT_EQ(flow_error("x\n"), "flows.txt:1: field flow_count: \"x\" is not a whole number");
  EXPECT_STARTS_WITH(flow_error(""), "flows.txt: empty");
}

// HPCC's own example (simulation/mix/flow.txt in alibaba-edu/High-Precision-Congestion-Control)
// says 2 flows on its first line, then lists 258 and ends with a note in prose; its simulator
// reads the 2. So does dlcnet, and says how many lines it left (the shape of that file, cut).
TEST(ModelFlowTxt, ReadsTheCountedFlowsAndLeavesTheRestAsHpccDoes) {
  std::istringstream in(
      "2\n2 1 3 100 200000000 2\n3 1 3 100 200000000 2\n4 1 3 100 150000000 2\n"
      "5 1 3 100 5000000 2\n\nFirst line: # of flows\nsrc0 dst0 3 dst_port0 size0 start_time0\n"
      "...\n\nPlease order the flows in ascending start_time!\n");
  size_t ignored = 99;
  const std::vector<HpccFlow> f = read_flow_txt(in, "flow.txt", &ignored);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[1].src, 3u);
  EXPECT_EQ(f[1].dst, 1u);
  EXPECT_EQ(f[1].size, 200000000u);
  EXPECT_EQ(f[1].start_s, 2.0);
  EXPECT_EQ(ignored, 6u);
}

// Lines of an fct.txt that HPCC's ns-3 wrote (the fct.txt committed beside that example in a
// fork, tianfengfrank/High-Precision-Congestion-Control): two 1-byte flows at 2 s.
TEST(ModelFctTxt, ReadsWhatHpccWrote) {
  std::istringstream in(
      "0b000201 0b000401 10000 100 1 2000000000 6042 6243\n"
      "0b000301 0b000501 10000 100 1 2000000000 6049 6243\n");
  const std::vector<FctRecord> r = read_fct_txt(in, "fct.txt");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].src(), 2u);
  EXPECT_EQ(r[0].dst(), 4u);
  EXPECT_EQ(r[1].src(), 3u);
  EXPECT_EQ(r[1].dst(), 5u);
  EXPECT_EQ(r[0].sport, 10000u);
  EXPECT_EQ(r[0].dport, 100u);
  EXPECT_EQ(r[0].size, 1u);
  EXPECT_EQ(r[0].start_ns, 2000000000u);
  EXPECT_EQ(r[0].fct_ns, 6042u);
  EXPECT_EQ(r[1].fct_ns, 6049u);
  EXPECT_EQ(r[0].standalone_ns, 6243u);
  EXPECT_EQ(r[1].line, 2u);
}

TEST(ModelFctTxt, PredictionAsHpccWritesIt) {
  // f0 0->1 and f1 0->2 (1 MB each, at 0) share up link 0: B/2 each, last byte sent at 2 ms,
  // arrived 1 us later, acknowledged 1 us after that: fct 2.002 ms. Alone: 2 x 1 us + 1 ms.
  // f2 1->2 (1000 B at 10 ms) is alone: 1 us + 2 x 1 us, its standalone time too.
  // Ports per (source, destination) pair from 10000 in start order (each pair here has one flow);
  // lines in order of sender completion.
  const std::vector<HpccFlow> flows{flow(0, 1, 1000000, 0), flow(0, 2, 1000000, 0),
                                    flow(1, 2, 1000, 0.01, 200)};
  const Calibration c = plain_calibration();
  const Prediction p = predict(uniform_network(3, c), c, messages_from_flows(flows));
  const std::vector<FctRecord> records = fct_from_prediction(flows, p, c);
  std::ostringstream out;
  write_fct_txt(out, records);
  const std::string text =
      "0b000001 0b000101 10000 100 1000000 0 2002000 1002000\n"
      "0b000001 0b000201 10000 100 1000000 0 2002000 1002000\n"
      "0b000101 0b000201 10000 200 1000 10000000 3000 3000\n";
  EXPECT_EQ(out.str(), text);
  std::istringstream in(text);
  const std::vector<FctRecord> back = read_fct_txt(in, "fct.txt");
  ASSERT_EQ(back.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back[i].sip, records[i].sip);
    EXPECT_EQ(back[i].dip, records[i].dip);
    EXPECT_EQ(back[i].sport, records[i].sport);
    EXPECT_EQ(back[i].dport, records[i].dport);
    EXPECT_EQ(back[i].size, records[i].size);
    EXPECT_EQ(back[i].start_ns, records[i].start_ns);
    EXPECT_EQ(back[i].fct_ns, records[i].fct_ns);
    EXPECT_EQ(back[i].standalone_ns, records[i].standalone_ns);
  }
  EXPECT_EQ(back[2].src(), 1u);
  EXPECT_EQ(back[2].dst(), 2u);
}

TEST(ModelFctTxt, ALoneFlowHasSlowdownOne) {
  // With HPCC's headers and an overhead, the model's lone flow takes its standalone time.
  Calibration c = plain_calibration();
  c.header_bytes = 48;
  c.overhead_s = 1.5e-6;
  for (uint64_t size : {1ull, 999ull, 1000ull, 1001ull, 65536ull, 10000000ull}) {
    const std::vector<HpccFlow> flows{flow(0, 1, size, 0.001)};
    const Prediction p = predict(uniform_network(2, c), c, messages_from_flows(flows));
    const FctRecord r = fct_from_prediction(flows, p, c).at(0);
    EXPECT_EQ(r.fct_ns, r.standalone_ns) << size;
  }
  // 2500 B: 3 packets, 2644 B on the wire: 2 us + 1.5 us + 2.644 us.
  EXPECT_NEAR(standalone_fct_s(2500, c), 6.144e-6, 1e-15);
}

TEST(ModelFctTxt, HpccNodeIds) {
  EXPECT_EQ(hpcc_node_id(0x0b000001), 0u);
  EXPECT_EQ(hpcc_node_id(0x0b00ff01), 255u);
  EXPECT_EQ(hpcc_node_id(0x0b010001), 256u);
}

TEST(ModelFctTxt, MalformedLinesNameFileLineAndField) {
  EXPECT_STARTS_WITH(fct_error("0b000001 0b000101 10000 100 1 0 1 1\n"
                               "0b000001 0b00010g 10000 100 1 0 1 1\n"),
                     "fct.txt:2: field dip: \"0b00010g\" is not an address in hex");
  EXPECT_EQ(fct_error("0b000001 0b000101 10000 100 1 0 1\n"),
            "fct.txt:1: field standalone_fct_ns: missing");
  EXPECT_EQ(fct_error("0b000001 0b000101 10000 100 1 -5 1 1\n"),
            "fct.txt:1: field start_ns: \"-5\" is not a whole number");
  // Forks append columns: read the first 8.
  std::istringstream in("0b000001 0b000101 10000 100 1 0 1 1 77 extra\n");
  EXPECT_EQ(read_fct_txt(in, "fct.txt").size(), 1u);
}

TEST(ModelTopologyTxt, HostsOnOneSwitch) {
  // 1e9 B/s = 8 Gbit/s; latency 1 us = two links of 500 ns.
  std::ostringstream out;
  write_topology_txt(out, 3, plain_calibration());
  EXPECT_EQ(out.str(),
            "4 1 3\n"
            "3\n"
            "0 3 8Gbps 500ns 0\n"
            "1 3 8Gbps 500ns 0\n"
            "2 3 8Gbps 500ns 0\n");
}

}  // namespace
}  // namespace dlcnet::model
