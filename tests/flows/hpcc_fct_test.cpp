#include "flows/hpcc_fct.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace dlcnet
