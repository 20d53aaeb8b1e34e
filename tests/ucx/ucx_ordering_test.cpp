// What UcxTransport promises about ordering: nothing between a write and a following send to
// the same peer (a put and a tagged message may take different lanes), so dlc-replay waits for
// a write's completion before it notifies the peer.
#include <gtest/gtest.h>

#include "ucx/ucx_transport.hpp"
#include "ucx_test_support.hpp"

namespace dlcnet::test {
namespace {

TEST(UcxOrdering, DoesNotOrderAWriteBeforeAFollowingSend) {
  for (const Fabric& f : all_fabrics()) {
    if (f.needs_rdma && rdma_device().empty()) continue;
    SCOPED_TRACE(f.name);
    auto t = make_ucx_transport(options_for(f));
    EXPECT_FALSE(t->orders_write_before_send());
  }
}

}  // namespace
}  // namespace dlcnet::test
