// Transport::wait_event() over UCX (TransportOptions::wakeup): it blocks until traffic arrives,
// returns at once when a completion is already waiting, honours its time limit when nothing
// comes, and consumes nothing (the completion is still there for poll()).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/clock.hpp"
#include "ucx/ucx_transport.hpp"
#include "ucx_test_support.hpp"

namespace dlcnet::test {
namespace {

using Clock = std::chrono::steady_clock;

class UcxWaitEvent : public ::testing::TestWithParam<Fabric> {
 protected:
  void SetUp() override {
    if (GetParam().needs_rdma && rdma_device().empty())
      GTEST_SKIP() << "no RDMA device in /sys/class/infiniband";
  }
};

TEST_P(UcxWaitEvent, WithoutWakeupItCannotWait) {
  auto t = make_ucx_transport(options_for(GetParam()));
  EXPECT_FALSE(t->can_wait_event());
  const auto t0 = Clock::now();
  t->wait_event(2'000'000'000);  // returns at once
  EXPECT_LT(Clock::now() - t0, std::chrono::milliseconds(500));
}

TEST_P(UcxWaitEvent, WakesOnArrivalAndHonoursItsLimit) {
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    TransportOptions o = options_for(GetParam());
    o.wakeup = true;
    auto t = make_ucx_transport(o);
    ASSERT_TRUE(t->can_wait_event());
    std::vector<uint8_t> buf(256, 0);
    const RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    std::array<Completion, 4> c;
    if (rank == 0) {
      post_or_throw(
          *t, [&] { return t->post_recv(peer, reg, 0, 64, 1); }, "post_recv");
      // Nothing is sent yet: the wait lasts its limit (100 ms), give or take scheduling.
      auto t0 = Clock::now();
      t->wait_event(100'000'000);
      const auto idle = Clock::now() - t0;
      EXPECT_GE(idle, std::chrono::milliseconds(90));
      EXPECT_LT(idle, std::chrono::seconds(5));
      boot.barrier();  // rank 1 sends after this
      // The message wakes the wait long before its 20 s limit.
      t0 = Clock::now();
      int got = 0;
      while (got == 0 && Clock::now() - t0 < std::chrono::seconds(20)) {
        t->wait_event(20'000'000'000);
        got = t->poll(c);
      }
      ASSERT_EQ(got, 1) << t->last_error();
      EXPECT_LT(Clock::now() - t0, std::chrono::seconds(10));
      EXPECT_EQ(c[0].op, Op::recv);
      EXPECT_EQ(c[0].bytes, 64u);
    } else {
      boot.barrier();
      post_or_throw(
          *t, [&] { return t->post_send(peer, reg, 64, 64, 2, true); }, "post_send");
      wait_completions(*t, 1);
    }
    boot.barrier();
  });
}

TEST_P(UcxWaitEvent, ReturnsAtOnceWhenACompletionWaits) {
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    TransportOptions o = options_for(GetParam());
    o.wakeup = true;
    auto t = make_ucx_transport(o);
    std::vector<uint8_t> buf(256, 0);
    const RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    if (rank == 0) {
      post_or_throw(
          *t, [&] { return t->post_recv(peer, reg, 0, 64, 1); }, "post_recv");
      boot.barrier();
      boot.barrier();  // rank 1's send completed: the message is here or on its way
      // Let it land without polling, then the wait must not block: the completion is there.
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      const auto t0 = Clock::now();
      t->wait_event(10'000'000'000);
      EXPECT_LT(Clock::now() - t0, std::chrono::seconds(5));
      EXPECT_EQ(wait_completions(*t, 1).size(), 1u);  // and it was not consumed
    } else {
      boot.barrier();
      post_or_throw(
          *t, [&] { return t->post_send(peer, reg, 64, 64, 2, true); }, "post_send");
      wait_completions(*t, 1);
      boot.barrier();
    }
    boot.barrier();
  });
}

INSTANTIATE_TEST_SUITE_P(Fabrics, UcxWaitEvent, ::testing::ValuesIn(all_fabrics()),
                         [](const auto& tp) { return tp.param.name; });

}  // namespace
}  // namespace dlcnet::test
