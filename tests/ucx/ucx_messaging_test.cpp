// Tagged send/recv between two UcxTransports in one process.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <tuple>

#include "ucx/ucx_transport.hpp"
#include "ucx_test_support.hpp"

namespace dlcnet::test {
namespace {

using SizeParam = std::tuple<Fabric, size_t>;

class UcxSendRecv : public ::testing::TestWithParam<SizeParam> {
 protected:
  void SetUp() override {
    if (std::get<0>(GetParam()).needs_rdma && rdma_device().empty())
      GTEST_SKIP() << "no RDMA device in /sys/class/infiniband";
  }
};

// Both ranks send to each other at once; each checks the bytes and the reported length.
TEST_P(UcxSendRecv, DeliversTheBytes) {
  // Not a structured binding: clang 14 cannot capture one in the lambda below.
  const Fabric& fabric = std::get<0>(GetParam());
  const size_t size = std::get<1>(GetParam());
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(fabric));
    std::vector<uint8_t> buf(2 * size, 0);  // [0, size) to send, [size, 2 size) to receive
    fill(buf, 0, size, rank);
    RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    post_or_throw(
        *t, [&] { return t->post_recv(peer, reg, size, size, 7); }, "post_recv");
    post_or_throw(
        *t, [&] { return t->post_send(peer, reg, 0, size, 8, true); }, "post_send");
    auto done = wait_completions(*t, 2);
    for (const Completion& c : done) {
      EXPECT_EQ(c.peer, peer);
      EXPECT_EQ(c.bytes, size);
      EXPECT_EQ(c.wr_id, c.op == Op::recv ? 7u : 8u);
    }
    EXPECT_EQ(first_mismatch(buf, size, size, peer), SIZE_MAX);
    boot.barrier();
  });
}

INSTANTIATE_TEST_SUITE_P(Sizes, UcxSendRecv,
                         ::testing::Combine(::testing::ValuesIn(all_fabrics()),
                                            ::testing::Values(size_t{64}, size_t{64} << 10,
                                                              size_t{4} << 20)),
                         [](const auto& tp) {
                           return std::get<0>(tp.param).name + "_" +
                                  std::to_string(std::get<1>(tp.param));
                         });

class UcxMessaging : public ::testing::TestWithParam<Fabric> {
 protected:
  void SetUp() override {
    if (GetParam().needs_rdma && rdma_device().empty())
      GTEST_SKIP() << "no RDMA device in /sys/class/infiniband";
  }
};

// A message that arrived before its receive was posted completes the receive in place
// (UCX returns no request and calls no callback); that still yields a Completion.
TEST_P(UcxMessaging, ReceivePostedAfterArrivalCompletes) {
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(GetParam()));
    std::vector<uint8_t> buf(256, 0);
    fill(buf, 0, 64, rank);
    RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    if (rank == 0) {
      post_or_throw(
          *t, [&] { return t->post_send(1, reg, 0, 64, 1, true); }, "post_send");
      wait_completions(*t, 1);
      boot.barrier();
    } else {
      // Let the message land in UCX's unexpected queue first.
      Completion c[4];
      auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
      while (std::chrono::steady_clock::now() < until) EXPECT_EQ(t->poll(c), 0);
      boot.barrier();
      post_or_throw(
          *t, [&] { return t->post_recv(0, reg, 128, 64, 2); }, "post_recv");
      auto done = wait_completions(*t, 1);
      EXPECT_EQ(done[0].bytes, 64u);
      EXPECT_EQ(first_mismatch(buf, 128, 64, 0), SIZE_MAX);
    }
    boot.barrier();
  });
}

TEST_P(UcxMessaging, TooSmallReceiveFailsWithUcxText) {
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(GetParam()));
    std::vector<uint8_t> buf(256, 0);
    RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    if (rank == 0) {
      post_or_throw(
          *t, [&] { return t->post_send(1, reg, 0, 128, 1, true); }, "post_send");
      wait_completions(*t, 1);
    } else {
      post_or_throw(
          *t, [&] { return t->post_recv(0, reg, 0, 64, 2); }, "post_recv");
      Completion c[4];
      int n = 0;
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (n == 0 && std::chrono::steady_clock::now() < until) n = t->poll(c);
      ASSERT_EQ(n, 1);
      EXPECT_FALSE(c[0].ok);
      EXPECT_EQ(c[0].wr_id, 2u);
      EXPECT_STREQ(c[0].error, "Message truncated");
    }
    boot.barrier();
  });
}

// send_depth bounds what is in flight per peer, completions not yet polled included.
TEST_P(UcxMessaging, BusyPastDepth) {
  constexpr uint32_t kDepth = 4;
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    TransportOptions o = options_for(GetParam());
    o.send_depth = kDepth;
    o.recv_depth = kDepth;
    auto t = make_ucx_transport(o);
    std::vector<uint8_t> buf(64 * (kDepth + 1), 0);
    RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    if (rank == 0) {
      for (uint32_t i = 0; i < kDepth; ++i)
        EXPECT_EQ(t->post_send(1, reg, 0, 64, i, true), Status::ok) << i;
      EXPECT_EQ(t->post_send(1, reg, 0, 64, 99, true), Status::busy);
      EXPECT_EQ(t->post_write(1, reg, 0, 64, 0, 99, true), Status::busy);
      wait_completions(*t, kDepth);
      EXPECT_EQ(t->post_send(1, reg, 0, 64, kDepth, true), Status::ok);
      wait_completions(*t, 1);
    } else {
      for (uint32_t i = 0; i < kDepth; ++i)
        EXPECT_EQ(t->post_recv(0, reg, 64 * i, 64, i), Status::ok) << i;
      EXPECT_EQ(t->post_recv(0, reg, 0, 64, 99), Status::busy);
      wait_completions(*t, kDepth);
      EXPECT_EQ(t->post_recv(0, reg, 0, 64, kDepth), Status::ok);
      wait_completions(*t, 1);
    }
    boot.barrier();
  });
}

// Unsignaled sends produce no completion but release their credit when UCX is done.
TEST_P(UcxMessaging, UnsignaledSendsProduceNoCompletion) {
  constexpr int kCount = 64;
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    TransportOptions o = options_for(GetParam());
    o.send_depth = 8;
    o.recv_depth = kCount;
    auto t = make_ucx_transport(o);
    std::vector<uint8_t> buf(64 * kCount, 0);
    RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    if (rank == 0) {
      std::vector<Completion> got;
      for (int i = 0; i < kCount; ++i) {
        bool signaled = i % 4 == 3;  // one in send_depth / 2
        Status s;
        while ((s = t->post_send(1, reg, 0, 64, static_cast<uint64_t>(i), signaled)) ==
               Status::busy) {
          auto more = wait_completions(*t, 1);
          got.insert(got.end(), more.begin(), more.end());
        }
        ASSERT_EQ(s, Status::ok) << t->last_error();
      }
      auto rest = wait_completions(*t, kCount / 4 - got.size());
      got.insert(got.end(), rest.begin(), rest.end());
      for (const Completion& c : got) EXPECT_EQ(c.wr_id % 4, 3u);
    } else {
      for (int i = 0; i < kCount; ++i)
        ASSERT_EQ(t->post_recv(0, reg, 64 * static_cast<size_t>(i), 64, 0), Status::ok);
      wait_completions(*t, kCount);
    }
    boot.barrier();
  });
}

// Sends UCX cannot finish in place (rendezvous: the data waits for the peer's receive) keep
// their credit until done, unsignaled ones too, and still report nothing; a small send completes
// in place and holds none (see UcxTransport::track).
TEST_P(UcxMessaging, SendsInFlightHoldTheirCreditUntilDone) {
  constexpr uint32_t kDepth = 4;
  constexpr size_t kSize = size_t{256} << 10;
  // Rendezvous on every fabric (tcp's automatic threshold may be higher than kSize); each test
  // runs in a process of its own (ctest), and the variable is removed again below.
  ASSERT_EQ(setenv("UCX_RNDV_THRESH", "1024", 1), 0);
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    TransportOptions o = options_for(GetParam());
    o.send_depth = kDepth;
    o.recv_depth = kDepth + 1;
    auto t = make_ucx_transport(o);
    std::vector<uint8_t> buf(kSize * (kDepth + 1), 0);
    fill(buf, 0, kSize, rank);
    RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    if (rank == 0) {
      post_sends_the_peer_holds(*t, reg, kDepth, kSize);
      if (::testing::Test::HasFatalFailure()) return;
      Completion c[4];
      EXPECT_EQ(t->post_send(1, reg, 0, 64, 98, false), Status::busy);
      boot.barrier();  // the peer posts its receives now
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      Status st;
      while ((st = t->post_send(1, reg, 0, kSize, 99, true)) == Status::busy &&
             std::chrono::steady_clock::now() < until) {
        ASSERT_EQ(t->poll(c), 0);  // credits come back without completions
      }
      ASSERT_EQ(st, Status::ok) << t->last_error();
      auto done = wait_completions(*t, 1);
      ASSERT_EQ(done.size(), 1u);
      EXPECT_EQ(done[0].wr_id, 99u);
      EXPECT_EQ(done[0].bytes, kSize);
    } else {
      boot.barrier();
      for (uint32_t i = 0; i <= kDepth; ++i)
        ASSERT_EQ(t->post_recv(0, reg, kSize * i, kSize, i), Status::ok) << t->last_error();
      auto done = wait_completions(*t, kDepth + 1);
      for (const Completion& c : done) EXPECT_EQ(c.bytes, kSize);
      for (uint32_t i = 0; i <= kDepth; ++i)
        EXPECT_EQ(first_mismatch(buf, kSize * i, kSize, peer), SIZE_MAX) << "message " << i;
    }
    boot.barrier();
  });
  unsetenv("UCX_RNDV_THRESH");
}

INSTANTIATE_TEST_SUITE_P(Fabrics, UcxMessaging, ::testing::ValuesIn(all_fabrics()),
                         [](const auto& tp) { return tp.param.name; });

}  // namespace
}  // namespace dlcnet::test
