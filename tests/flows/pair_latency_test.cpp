#include "flows/pair_latency.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace dlcnet {
namespace {

Flow flow(int32_t src, int32_t dst, int32_t key, double fct_ns, double bound_ns) {
  Flow f;
  f.src = src;
  f.dst = dst;
  f.key = key;
  f.bytes = 100;
  f.fct_ns = fct_ns;
  f.bound_ns = bound_ns;
  return f;
}

TEST(PairLatency, OnePairPerDirectionWithItsWorstBound) {
  const std::vector<Flow> f = {flow(1, 0, 1, 3000, 10), flow(0, 1, 2, 5000, 20),
                               flow(1, 0, 3, 1000, 40), flow(1, 0, 4, 2000, 5)};
  uint64_t dup = 0;
  const std::vector<PairLatency> p = pair_latencies(f, &dup);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(dup, 0u);
  EXPECT_EQ(p[0].src, 0);  // ordered by (src, dst)
  EXPECT_EQ(p[0].dst, 1);
  EXPECT_EQ(p[0].messages, 1u);
  EXPECT_EQ(p[1].src, 1);
  EXPECT_EQ(p[1].messages, 3u);
  EXPECT_EQ(p[1].bytes, 300u);
  EXPECT_EQ(p[1].one_way_s.count, 3u);
  EXPECT_DOUBLE_EQ(p[1].one_way_s.min, 1e-6);
  EXPECT_DOUBLE_EQ(p[1].one_way_s.p50, 2e-6);
  EXPECT_DOUBLE_EQ(p[1].one_way_s.max, 3e-6);
  EXPECT_DOUBLE_EQ(p[1].bound_s, 40e-9);
}

TEST(PairLatency, CountsAMessageReceivedTwice) {
  const std::vector<Flow> f = {flow(1, 0, 7, 3000, 0), flow(1, 0, 7, 3000, 0),
                               flow(0, 1, 7, 3000, 0)};
  uint64_t dup = 0;
  EXPECT_EQ(pair_latencies(f, &dup).size(), 2u);
  EXPECT_EQ(dup, 1u);
  EXPECT_EQ(pair_latencies({}, nullptr).size(), 0u);
}

}  // namespace
}  // namespace dlcnet
