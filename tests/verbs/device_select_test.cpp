// Device selection where it can be checked without a device, and its errors where one exists.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "verbs/handles.hpp"
#include "verbs/verbs_transport.hpp"

namespace dlcnet::test {
namespace {

TEST(VerbsSelect, NoDeviceAtAllSaysSo) {
  if (verbs::DeviceList().size() != 0) GTEST_SKIP() << "this machine has RDMA devices";
  EXPECT_TRUE(active_verbs_devices().empty());
  for (bool cm : {false, true}) {
    TransportOptions opts;
    opts.rdma_cm = cm;
    try {
      make_verbs_transport(opts);
      FAIL() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("no RDMA device found"), std::string::npos) << e.what();
    }
  }
}

TEST(VerbsSelect, ActiveDevicesNeverThrows) {
  EXPECT_NO_THROW(active_verbs_devices());
}

}  // namespace
}  // namespace dlcnet::test
