// Ping-pong of tagged messages between two UcxTransports, as `dlc-bench lat` drives them: each
// rank keeps one receive of its whole in area posted, rank 0 sends a ping, rank 1 answers it.
// A run ends as the benchmark's does: the responder posts its last reply and goes straight into
// a bootstrap barrier, without polling. A rendezvous-sized reply (tcp, shared memory) needs its
// sender's progress to move, so this used to hang until UcxTransport progressed by itself.
#include <gtest/gtest.h>

#include <chrono>
#include <tuple>
#include <vector>

#include "ucx/ucx_transport.hpp"
#include "ucx_test_support.hpp"

namespace dlcnet::test {
namespace {

using PingPongParam = std::tuple<Fabric, size_t>;

class UcxPingPong : public ::testing::TestWithParam<PingPongParam> {
 protected:
  void SetUp() override {
    if (std::get<0>(GetParam()).needs_rdma && rdma_device().empty())
      GTEST_SKIP() << "no RDMA device in /sys/class/infiniband";
  }
};

TEST_P(UcxPingPong, ResponderLeavesRightAfterItsLastReply) {
  // Not a structured binding: clang 14 cannot capture one in the lambda below.
  const Fabric& fabric = std::get<0>(GetParam());
  const size_t size = std::get<1>(GetParam());
  // Round trips: a warm-up run, then the measured one. Soft-RoCE in an emulated guest moves a
  // few MB/s (a 1 MiB round trip takes ~0.7 s), so RC verbs gets a shorter run there.
  const std::vector<int> runs =
      fabric.needs_rdma ? std::vector<int>{2, 10} : std::vector<int>{10, 100};
  // Bounds every wait: a stranded reply fails the test instead of hanging it.
  const auto limit = std::chrono::seconds(15);
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(fabric));
    // [out area | in area], as PeerSession lays them out.
    std::vector<uint8_t> buf(2 * size, 0);
    RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    auto post_recv = [&] {
      post_or_throw(
          *t, [&] { return t->post_recv(peer, reg, size, size, 1); }, "post_recv");
    };
    // Unsignaled, as most benchmark sends: the only completions are receives.
    auto send = [&](uint8_t mark) {
      buf[0] = buf[size - 1] = mark;
      post_or_throw(
          *t, [&] { return t->post_send(peer, reg, 0, size, 2, false); }, "post_send");
    };
    auto receive = [&](uint8_t mark) {
      std::vector<Completion> c = wait_completions(*t, 1, limit);
      ASSERT_EQ(c.size(), 1u);
      EXPECT_EQ(c[0].op, Op::recv);
      EXPECT_EQ(c[0].bytes, size);
      EXPECT_EQ(buf[size], mark);
      EXPECT_EQ(buf[2 * size - 1], mark);
      post_recv();
    };
    post_recv();
    uint8_t mark = 0;
    for (int rounds : runs) {
      for (int i = 0; i < rounds; ++i) {
        mark = static_cast<uint8_t>(mark % 255 + 1);
        if (rank == 0) {
          send(mark);
          receive(mark);
        } else {
          receive(mark);
          send(mark);  // the last one is still in flight when the barrier below blocks
        }
      }
      boot.barrier();
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Sizes, UcxPingPong,
                         ::testing::Combine(::testing::ValuesIn(all_fabrics()),
                                            ::testing::Values(size_t{64} << 10, size_t{1} << 20)),
                         [](const auto& tp) {
                           return std::get<0>(tp.param).name + "_" +
                                  std::to_string(std::get<1>(tp.param));
                         });

}  // namespace
}  // namespace dlcnet::test
