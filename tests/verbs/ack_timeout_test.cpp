// DLCNET_VERBS_ACK_TIMEOUT: the default, an override, and rejected values.
#include "verbs/ack_timeout.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "core/error.hpp"
#include "verbs/qp_setup.hpp"

namespace dlcnet::verbs {
namespace {

class AckTimeoutTest : public ::testing::Test {
 protected:
  void TearDown() override { unsetenv("DLCNET_VERBS_ACK_TIMEOUT"); }
  static void set(const char* v) { setenv("DLCNET_VERBS_ACK_TIMEOUT", v, 1); }
};

TEST_F(AckTimeoutTest, DefaultWithoutTheVariable) {
  unsetenv("DLCNET_VERBS_ACK_TIMEOUT");
  EXPECT_EQ(ack_timeout(), kAckTimeout);
  set("");
  EXPECT_EQ(ack_timeout(), kAckTimeout);
}

TEST_F(AckTimeoutTest, Override) {
  set("19");
  EXPECT_EQ(ack_timeout(), 19);
  set("1");
  EXPECT_EQ(ack_timeout(), 1);
  set("31");
  EXPECT_EQ(ack_timeout(), 31);
}

TEST_F(AckTimeoutTest, RejectsOutOfRangeOrJunk) {
  for (const char* v : {"0", "32", "-1", "18x", "abc"}) {
    set(v);
    EXPECT_THROW(ack_timeout(), Error) << v;
  }
}

}  // namespace
}  // namespace dlcnet::verbs
