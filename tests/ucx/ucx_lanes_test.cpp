#include "ucx/ucx_lanes.hpp"

#include <gtest/gtest.h>

namespace dlcnet::ucx {
namespace {

// ucp_ep_print_info() output of UCX 1.13.1 on this machine (UCX_TLS=tcp).
constexpr const char* kTcpInfo = R"(#
# UCP endpoint 
#
#               peer: <no debug data>
#                 lane[0]:  1:tcp/lo.0 md[1]                -> md[1]/tcp/sysdev[255] am am_bw#0 keepalive wireup
#
#                tag_send: 0..<egr/short>..8185..<egr/zcopy>..20553..<rndv>..(inf)
#            tag_send_nbr: 0..<egr/short>..8185..<egr/bcopy>..262144..<rndv>..(inf)
#
#                  rma_bw: mds rndv_rkey_size 9
#
)";

TEST(UcxLanes, ParsesTcpLane) {
  EndpointInfo info = parse_endpoint_info(kTcpInfo);
  ASSERT_EQ(info.lanes.size(), 1u);
  EXPECT_EQ(info.lanes[0].index, 0);
  EXPECT_EQ(info.lanes[0].transport, "tcp");
  EXPECT_EQ(info.lanes[0].device, "lo");
  EXPECT_EQ(info.lanes[0].uses, (std::vector<std::string>{"am", "am_bw#0", "keepalive", "wireup"}));
  EXPECT_EQ(info.transports(), std::vector<std::string>{"tcp"});
  ASSERT_GE(info.protocols.size(), 2u);
  EXPECT_EQ(info.protocols[0].first, "tag_send");
  EXPECT_EQ(info.protocols[0].second, "0..<egr/short>..8185..<egr/zcopy>..20553..<rndv>..(inf)");
}

TEST(UcxLanes, ParsesSeveralTransportsAndKeepsDeviceColons) {
  EndpointInfo info = parse_endpoint_info(
      "#  lane[0]:  4:rc_verbs/rxe0:1.0 md[2]  -> md[2]/ib/sysdev[255] rma_bw#0 am am_bw#0\n"
      "#  lane[1]:  6:ud_verbs/rxe0:1.0 md[2]  -> md[2]/ib/sysdev[255] wireup{ud_verbs/rxe0:1}\n"
      "#  lane[2]:  2:cma/memory.0 md[1]  -> md[1]/cma/sysdev[255] rma_bw#1\n"
      "#  lane[3]:  0:tcp/eth0.100.0 md[0]  -> md[0]/tcp/sysdev[255] am\n");
  ASSERT_EQ(info.lanes.size(), 4u);
  EXPECT_EQ(info.lanes[0].transport, "rc_verbs");
  EXPECT_EQ(info.lanes[0].device, "rxe0:1");
  EXPECT_EQ(info.lanes[1].uses, std::vector<std::string>{"wireup{ud_verbs/rxe0:1}"});
  EXPECT_EQ(info.lanes[2].device, "memory");
  EXPECT_EQ(info.lanes[3].device, "eth0.100");
  EXPECT_EQ(info.transports(), (std::vector<std::string>{"rc_verbs", "ud_verbs", "cma", "tcp"}));
}

TEST(UcxLanes, IgnoresTextItDoesNotKnow) {
  EndpointInfo info = parse_endpoint_info("garbage\n# lane[x]: nonsense\n#  lane[2]: \n\n");
  EXPECT_TRUE(info.lanes.empty());
  nlohmann::json j = to_json(info);
  EXPECT_TRUE(j["lanes"].empty());
  EXPECT_TRUE(j["transports"].empty());
}

}  // namespace
}  // namespace dlcnet::ucx
