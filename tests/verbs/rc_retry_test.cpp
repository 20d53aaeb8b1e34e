// DLCNET_VERBS_ACK_TIMEOUT and DLCNET_VERBS_RETRY_COUNT: the default, an override, and
// rejected values.
#include "verbs/rc_retry.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include "core/error.hpp"
#include "verbs/qp_setup.hpp"

namespace dlcnet::verbs {
namespace {

class AckTimeoutTest : public ::testing::Test {
 protected:
  void TearDown() override {
    unsetenv("DLCNET_VERBS_ACK_TIMEOUT");
    unsetenv("DLCNET_VERBS_RETRY_COUNT");
  }
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

TEST_F(AckTimeoutTest, RetryCountDefaultOverrideAndRejects) {
  unsetenv("DLCNET_VERBS_RETRY_COUNT");
  EXPECT_EQ(retry_count(), kRetryCount);
  setenv("DLCNET_VERBS_RETRY_COUNT", "7", 1);
  EXPECT_EQ(retry_count(), 7);
  setenv("DLCNET_VERBS_RETRY_COUNT", "0", 1);
  EXPECT_EQ(retry_count(), 0);
  for (const char* v : {"8", "-1", "7x", "x"}) {
    setenv("DLCNET_VERBS_RETRY_COUNT", v, 1);
    EXPECT_THROW(retry_count(), Error) << v;
  }
}

}  // namespace
}  // namespace dlcnet::verbs
