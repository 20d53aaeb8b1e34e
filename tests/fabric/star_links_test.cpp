// The ranks' links of a namespace star: two readings become per-link differences and totals.
#include "fabric/star_links.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "core/error.hpp"

namespace dlcnet::fabric {
namespace {

LinkReading reading(int i, int64_t t_ns, uint64_t drops, uint64_t packets) {
  LinkReading r;
  r.netns = "P-h" + std::to_string(i);
  r.dev = "h" + std::to_string(i);
  r.kind = "netem";
  r.counters.t_ns = t_ns;
  r.counters.drops = drops;
  r.counters.sent_packets = packets;
  r.counters.sent_bytes = packets * 1000;
  return r;
}

TEST(StarLinks, DifferencesPerLinkAndTotals) {
  const std::vector<LinkReading> before{reading(0, 1'000'000'000, 5, 100),
                                        reading(1, 1'000'000'000, 0, 50)};
  const std::vector<LinkReading> after{reading(0, 3'000'000'000, 12, 400),
                                       reading(1, 3'500'000'000, 3, 150)};
  const nlohmann::json j = star_links_json("P", before, after);
  EXPECT_EQ(j["prefix"], "P");
  EXPECT_EQ(j["drops"], 10);
  EXPECT_EQ(j["sent_packets"], 400);
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 2.5);
  ASSERT_EQ(j["links"].size(), 2u);
  EXPECT_EQ(j["links"][0]["rank"], 0);
  EXPECT_EQ(j["links"][0]["netns"], "P-h0");
  EXPECT_EQ(j["links"][0]["dev"], "h0");
  EXPECT_EQ(j["links"][0]["qdisc"], "netem");
  EXPECT_EQ(j["links"][0]["drops"], 7);
  EXPECT_EQ(j["links"][0]["sent_packets"], 300);
  EXPECT_EQ(j["links"][0]["sent_bytes"], 300000);
  EXPECT_EQ(j["links"][1]["drops"], 3);
  EXPECT_EQ(star_links_line(j),
            "# star links: 10 drops of 400 packets sent on 2 links (netem), h0 7, h1 3");
}

TEST(StarLinks, AReplacedQdiscCountsFromZero) {
  const nlohmann::json j =
      star_links_json("P", {reading(0, 0, 50, 500)}, {reading(0, 1'000'000'000, 4, 20)});
  EXPECT_EQ(j["links"][0]["drops"], 4);
  EXPECT_EQ(j["links"][0]["sent_packets"], 20);
}

TEST(StarLinks, ReadingsOfOtherLinksAreRefused) {
  EXPECT_THROW(star_links_json("P", {reading(0, 0, 0, 0)}, {}), Error);
  EXPECT_THROW(star_links_json("P", {reading(0, 0, 0, 0)}, {reading(1, 0, 0, 0)}), Error);
}

TEST(StarLinks, AMissingNamespaceIsNamed) {
  try {
    read_star_links("no-such-star-prefix", 2);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-star-prefix-h0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dlcnet::fabric
