// The sampler's errors, raised from start() and naming the device and the namespace.
#include "fabric/qdisc_sampler.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"

namespace dlcnet::fabric {
namespace {

// start()'s message, or "" when it does not throw Error.
std::string start_error(const std::string& dev, const std::string& netns) {
  QdiscSampler s(dev, netns);
  try {
    s.start();
  } catch (const Error& e) {
    return e.what();
  }
  s.stop();
  return "";
}

TEST(QdiscSampler, NonexistentDeviceNamesDeviceAndNamespace) {
  const std::string e = start_error("nosuchdev0", "");
  EXPECT_NE(e.find("no device 'nosuchdev0'"), std::string::npos) << e;
  EXPECT_NE(e.find("the current network namespace"), std::string::npos) << e;
}

TEST(QdiscSampler, NonexistentNamespaceNamesNamespaceAndDevice) {
  const std::string e = start_error("p0", "dlcnet-no-such-netns");
  EXPECT_NE(e.find("network namespace 'dlcnet-no-such-netns' does not exist"), std::string::npos)
      << e;
  EXPECT_NE(e.find("device 'p0'"), std::string::npos) << e;
}

TEST(QdiscSampler, DeviceWithoutAQueueIsRefused) {
  // lo has noqueue: nothing to sample.
  const std::string e = start_error("lo", "");
  EXPECT_NE(e.find("device 'lo' in the current network namespace has no queue"), std::string::npos)
      << e;
}

TEST(QdiscSampler, BadRateAndEmptyDevice) {
  EXPECT_THROW(QdiscSampler("lo", "", 0), Error);
  EXPECT_THROW(QdiscSampler("lo", "", 2e6), Error);
  EXPECT_THROW(QdiscSampler("", ""), Error);
}

TEST(QdiscSampler, StopWithoutStartReturnsNothing) {
  QdiscSampler s("lo", "");
  EXPECT_TRUE(s.stop().empty());
}

}  // namespace
}  // namespace dlcnet::fabric
