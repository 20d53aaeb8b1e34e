#include "flows/fct.hpp"

#include <gtest/gtest.h>

#include "tests/flows/sample_flows.hpp"

#include <sstream>
#include <vector>

namespace dlcnet {
namespace {

TEST(Fct, HpccNodeAddresses) {
  EXPECT_EQ(hpcc_node_ip(0), 0x0b000001u);
  EXPECT_EQ(hpcc_node_ip(1), 0x0b000101u);
  EXPECT_EQ(hpcc_node_ip(255), 0x0b00ff01u);
  EXPECT_EQ(hpcc_node_ip(256), 0x0b010001u);
}

TEST(Fct, LineLayout) {
  EXPECT_EQ(fct_line(0x0b000001, 0x0b000201, 10000, 100, 4096, 2000.4, 15000.6, 12000),
            "0b000001 0b000201 10000 100 4096 2000 15001 12000");
  // Negative values (clock error above the latency) are written as 0.
  EXPECT_EQ(fct_line(1, 2, 3, 4, 5, -1, -2, -3), "00000001 00000002 3 4 5 0 0 0");
}

using dlcnet::testing::sample_flows;

TEST(Fct, OrderedByStartWithPortsPerPair) {
  std::ostringstream out;
  FctOptions o;
  o.origin_ns = 1000;
  write_fct(out, sample_flows(), o);
  EXPECT_EQ(out.str(),
            // Pair 0->2: base 9000 (fastest), rate from the 1 MB flow: 1e6 B / 101000 ns.
            "0b000001 0b000201 10000 100 1000000 0 110000 110000\n"
            "0b000201 0b000001 10000 100 100 2000 8000 8000\n"
            "0b000001 0b000201 10001 100 1000 4000 10000 9101\n"
            "0b000001 0b000201 10002 100 100 6000 9000 9010\n");
}

TEST(Fct, GivenLinkRate) {
  std::ostringstream out;
  FctOptions o;
  o.link_bps = 8e9;  // 1 byte per ns
  auto f = sample_flows();
  f.resize(1);
  write_fct(out, f, o);
  EXPECT_EQ(out.str(), "0b000001 0b000201 10000 100 1000 5000 10000 11000\n");
}

}  // namespace
}  // namespace dlcnet
