// Where rank 0 listens: the coordinator's address, never every interface unless asked or the
// coordinator is a name (issue #16). The Job check reads the kernel's socket table.
#include "launch/coordinator_bind.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "launch/job.hpp"

namespace dlcnet {
namespace {

TEST(CoordinatorBind, AnAddressIsBoundExactly) {
  EXPECT_EQ(coordinator_bind("127.0.0.1", "").host, "127.0.0.1");
  EXPECT_EQ(coordinator_bind("10.1.2.3", "").host, "10.1.2.3");
  EXPECT_EQ(coordinator_bind("::1", "").host, "::1");
  EXPECT_EQ(coordinator_bind("fe80::1", "").why, "");
}

TEST(CoordinatorBind, ANameListensEverywhereAndSaysSo) {
  const CoordinatorBind b = coordinator_bind("node01", "");
  EXPECT_EQ(b.host, "0.0.0.0");
  EXPECT_NE(b.why.find("node01 is a name"), std::string::npos) << b.why;
  EXPECT_NE(b.why.find("DLCNET_COORDINATOR_BIND"), std::string::npos) << b.why;
}

TEST(CoordinatorBind, TheOverrideWinsAndNothingGivenIsLoopback) {
  EXPECT_EQ(coordinator_bind("node01", "192.168.0.7").host, "192.168.0.7");
  EXPECT_EQ(coordinator_bind("node01", "192.168.0.7").why, "");
  EXPECT_EQ(coordinator_bind("", "").host, "127.0.0.1");
}

// The IPv4 address (as /proc/net/tcp writes it) of the listening socket on `port`, "" if none.
std::string listening_address(uint16_t port) {
  std::ifstream in("/proc/net/tcp");
  std::string line;
  std::getline(in, line);
  char want[8];
  std::snprintf(want, sizeof want, "%04X", port);
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string slot, local, remote, state;
    f >> slot >> local >> remote >> state;
    if (state == "0A" && local.substr(local.find(':') + 1) == want) {
      return local.substr(0, local.find(':'));
    }
  }
  return "";
}

JobConfig rank0(const std::string& coordinator) {
  JobConfig c;
  c.world_size = 2;
  c.coordinator_host = coordinator;
  c.job_token = 7;
  return c;
}

TEST(CoordinatorBind, RankZeroOfASpawnedJobListensOnLoopbackOnly) {
  unsetenv("DLCNET_COORDINATOR_BIND");
  Job job(rank0("127.0.0.1"));
  EXPECT_EQ(listening_address(job.port()), "0100007F");  // 127.0.0.1, not 00000000
}

TEST(CoordinatorBind, AnAddressNotOnThisHostIsAClearError) {
  unsetenv("DLCNET_COORDINATOR_BIND");
  try {
    Job job(rank0("192.0.2.1"));  // TEST-NET-1: on no host
    FAIL() << "rank 0 listened on an address this host does not have";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("run rank 0 on that host"), std::string::npos) << e.what();
  }
}

TEST(CoordinatorBind, TheEnvironmentCanOpenEveryInterface) {
  setenv("DLCNET_COORDINATOR_BIND", "0.0.0.0", 1);
  Job job(rank0("127.0.0.1"));
  unsetenv("DLCNET_COORDINATOR_BIND");
  EXPECT_EQ(listening_address(job.port()), "00000000");
}

}  // namespace
}  // namespace dlcnet
