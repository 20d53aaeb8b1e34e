// The measured fct.txt (--fct) in HPCC's meaning, by hand.
#include "model/measured_fct.hpp"

#include <gtest/gtest.h>

namespace dlcnet::model {
namespace {

TEST(ModelMeasuredFct, HpccMeaningFromTheCalibration) {
  Calibration c;
  c.link_rate_Bps = 1e9;    // 1 byte per ns
  c.base_latency_s = 5e-6;  // 5 us one way
  c.header_bytes = 0;
  c.overhead_s = 1e-6;
  FlowMap m;
  // 1 -> 0, 4000 B posted at 0, arrived 20 us later; 2 -> 0, 1000 B at 1 us, 9 us later; a
  // message whose clock error exceeds its latency (-3 us).
  m.flows = {{0, 1, 0, 10000, 4000, 0, 20000, 10, 0, 0, 0},
             {1, 2, 0, 10000, 1000, 1000, 9000, 10, 0, 1, 0},
             {2, 2, 0, 10001, 8, 2000, -3000, 10, 0, 2, 0}};
  const std::vector<FctRecord> r = measured_fct(m, c);
  ASSERT_EQ(r.size(), 3u);
  // In order of completion: the third (2000 + max(0, -3000 + 5000)), the second (1000 + 14000),
  // the first (0 + 25000).
  EXPECT_EQ(r[0].sport, 10001u);
  EXPECT_EQ(r[0].fct_ns, 2000u);
  EXPECT_EQ(r[1].sip, 0x0b000201u);
  EXPECT_EQ(r[1].dip, 0x0b000001u);
  EXPECT_EQ(r[1].start_ns, 1000u);
  EXPECT_EQ(r[1].fct_ns, 14000u);  // one-way 9 us + the acknowledgement's 5 us
  // Standalone: 2 x 5 us + 1 us overhead + 1000 B at 1 B/ns = 12 us.
  EXPECT_EQ(r[1].standalone_ns, 12000u);
  EXPECT_EQ(r[2].fct_ns, 25000u);
  EXPECT_EQ(r[2].standalone_ns, 15000u);
  EXPECT_EQ(r[2].dport, 100u);
}

}  // namespace
}  // namespace dlcnet::model
