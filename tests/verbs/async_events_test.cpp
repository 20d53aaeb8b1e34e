#include "verbs/async_events.hpp"

#include <gtest/gtest.h>

namespace dlcnet::verbs {
namespace {

TEST(AsyncEvents, FatalOnesStopTheTransportOthersDoNot) {
  for (ibv_event_type t : {IBV_EVENT_QP_FATAL, IBV_EVENT_QP_REQ_ERR, IBV_EVENT_QP_ACCESS_ERR,
                           IBV_EVENT_CQ_ERR, IBV_EVENT_PORT_ERR, IBV_EVENT_DEVICE_FATAL}) {
    EXPECT_TRUE(is_fatal_event(t)) << ibv_event_type_str(t);
  }
  for (ibv_event_type t :
       {IBV_EVENT_COMM_EST, IBV_EVENT_PORT_ACTIVE, IBV_EVENT_GID_CHANGE, IBV_EVENT_LID_CHANGE,
        IBV_EVENT_SQ_DRAINED, IBV_EVENT_QP_LAST_WQE_REACHED}) {
    EXPECT_FALSE(is_fatal_event(t)) << ibv_event_type_str(t);
  }
}

}  // namespace
}  // namespace dlcnet::verbs
