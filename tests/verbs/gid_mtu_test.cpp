#include <arpa/inet.h>
#include <gtest/gtest.h>

#include "verbs/gid.hpp"
#include "verbs/mtu.hpp"

namespace dlcnet::verbs {
namespace {

GidBytes ipv4_gid(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
  GidBytes g{};
  g[10] = 0xff;
  g[11] = 0xff;
  g[12] = a;
  g[13] = b;
  g[14] = c;
  g[15] = d;
  return g;
}

TEST(Gid, FormatsIpv4MappedAsDottedQuad) {
  EXPECT_EQ(gid_to_string(ipv4_gid(198, 18, 0, 1)), "::ffff:198.18.0.1");
}

TEST(Gid, ParsesTheUncompressedFormSysfsPrints) {
  auto g = parse_gid("0000:0000:0000:0000:0000:ffff:c612:0001\n");
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(*g, ipv4_gid(198, 18, 0, 1));
  EXPECT_TRUE(gid_is_ipv4_mapped(*g));
  ASSERT_TRUE(gid_ipv4_be(*g).has_value());
  EXPECT_EQ(*gid_ipv4_be(*g), inet_addr("198.18.0.1"));
}

TEST(Gid, RoundTripsLinkLocal) {
  auto g = parse_gid("fe80::5054:ff:fe12:3456");
  ASSERT_TRUE(g.has_value());
  EXPECT_FALSE(gid_is_ipv4_mapped(*g));
  EXPECT_FALSE(gid_ipv4_be(*g).has_value());
  EXPECT_EQ(gid_to_string(*g), "fe80::5054:ff:fe12:3456");
}

TEST(Gid, RejectsGarbageAndDetectsZero) {
  EXPECT_FALSE(parse_gid("").has_value());
  EXPECT_FALSE(parse_gid("rxe0").has_value());
  EXPECT_FALSE(parse_gid("198.18.0.1").has_value());  // IPv4 text is not a GID
  auto zero = parse_gid("0000:0000:0000:0000:0000:0000:0000:0000");
  ASSERT_TRUE(zero.has_value());
  EXPECT_TRUE(gid_is_zero(*zero));
  EXPECT_FALSE(gid_is_ipv4_mapped(*zero));
}

TEST(Mtu, ConvertsEveryEnumValueBothWays) {
  for (ibv_mtu m : {IBV_MTU_256, IBV_MTU_512, IBV_MTU_1024, IBV_MTU_2048, IBV_MTU_4096}) {
    const uint32_t bytes = mtu_to_bytes(m);
    ASSERT_TRUE(mtu_from_bytes(bytes).has_value()) << bytes;
    EXPECT_EQ(*mtu_from_bytes(bytes), m);
  }
  EXPECT_EQ(mtu_to_bytes(IBV_MTU_1024), 1024u);
}

TEST(Mtu, RejectsEthernetSizesAndTakesTheSmallerForAPath) {
  EXPECT_FALSE(mtu_from_bytes(1500).has_value());
  EXPECT_FALSE(mtu_from_bytes(0).has_value());
  EXPECT_EQ(path_mtu(IBV_MTU_4096, IBV_MTU_1024), IBV_MTU_1024);
  EXPECT_EQ(path_mtu(IBV_MTU_1024, IBV_MTU_2048), IBV_MTU_1024);
}

}  // namespace
}  // namespace dlcnet::verbs
