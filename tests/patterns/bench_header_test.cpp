// perftest's console header from what a verbs transport describes (no device: a recorded
// describe() of rxe0).
#include "patterns/p2p/bench_header.hpp"

#include <gtest/gtest.h>

namespace dlcnet::bench {
namespace {

const nlohmann::json kDescribe = {
    {"device", "rxe0"},
    {"connection", "oob-tcp"},
    {"link_layer", "Ethernet"},
    {"peers", 1},
    {"send_depth", 128},
    {"gid_index", 1},
    {"gid", "::ffff:10.0.2.15"},
    {"inline_size", 64},
    {"qp", {{"path_mtu", 512}, {"traffic_class", 32}, {"sl", 0}, {"qpn", 18}, {"dest_qpn", 17}}}};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(VerbsHeader, NamesWhatTheQpRunsWith) {
  const std::string h = verbs_header(kDescribe);
  EXPECT_TRUE(has(h, " Device         : rxe0")) << h;
  EXPECT_TRUE(has(h, " Mtu            : 512[B]")) << h;
  EXPECT_TRUE(has(h, " TX depth       : 128")) << h;
  EXPECT_TRUE(has(h, " GID index      : 1")) << h;
  EXPECT_TRUE(has(h, " Max inline data: 64[B]")) << h;
  EXPECT_TRUE(has(h, " Traffic class  : 32")) << h;
  EXPECT_TRUE(has(h, " Service level  : 0")) << h;
  EXPECT_TRUE(has(h, " local address : QPN 0x0012 GID ::ffff:10.0.2.15")) << h;
  EXPECT_TRUE(has(h, " remote address: QPN 0x0011")) << h;
}

TEST(VerbsHeader, MissingFieldsPrintAsUnknownNotZero) {
  const std::string h = verbs_header({{"device", "rxe0"}});
  EXPECT_TRUE(has(h, " Mtu            : ?")) << h;
  EXPECT_TRUE(has(h, " local address : QPN ?")) << h;
}

}  // namespace
}  // namespace dlcnet::bench
