// Put and get between two UcxTransports in one process.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "ucx/ucx_transport.hpp"
#include "ucx_test_support.hpp"

namespace dlcnet::test {
namespace {

using SizeParam = std::tuple<Fabric, size_t>;

class UcxRma : public ::testing::TestWithParam<SizeParam> {
 protected:
  void SetUp() override {
    if (std::get<0>(GetParam()).needs_rdma && rdma_device().empty())
      GTEST_SKIP() << "no RDMA device in /sys/class/infiniband";
  }
};

// Each rank writes its pattern into the peer's region and reads the peer's pattern back, then
// tells the peer with a message. A signaled write completes only once the data is at the
// target, so the message proves the peer's region holds the data when it arrives.
TEST_P(UcxRma, WriteAndReadMoveTheBytes) {
  // Not a structured binding: clang 14 cannot capture one in the lambda below.
  const Fabric& fabric = std::get<0>(GetParam());
  const size_t size = std::get<1>(GetParam());
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(fabric));
    // [0, size) source, [size, 2 size) written by the peer, [2 size, 3 size) read from the peer
    std::vector<uint8_t> data(3 * size, 0);
    std::vector<uint8_t> ctl(16, 0);
    fill(data, 0, size, rank);
    RegionId reg = t->register_memory(data.data(), data.size());
    RegionId ctl_reg = t->register_memory(ctl.data(), ctl.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));

    post_or_throw(
        *t, [&] { return t->post_recv(peer, ctl_reg, 0, 8, 100); }, "post_recv");
    post_or_throw(
        *t, [&] { return t->post_write(peer, reg, 0, size, size, 1, true); }, "write");
    post_or_throw(
        *t, [&] { return t->post_read(peer, reg, 2 * size, size, 0, 2, true); }, "read");
    // Wait for write and read, then tell the peer. The peer's message may already be among
    // the first two completions, so count: four completions in all (write, read, recv, send).
    std::vector<Completion> got = wait_completions(*t, 2);
    while (std::none_of(got.begin(), got.end(), [](auto& c) { return c.op == Op::write; }) ||
           std::none_of(got.begin(), got.end(), [](auto& c) { return c.op == Op::read; })) {
      auto more = wait_completions(*t, 1);
      got.insert(got.end(), more.begin(), more.end());
    }
    post_or_throw(
        *t, [&] { return t->post_send(peer, ctl_reg, 8, 8, 3, true); }, "post_send");
    auto rest = wait_completions(*t, 4 - got.size());
    got.insert(got.end(), rest.begin(), rest.end());

    for (const Completion& c : got) {
      if (c.op == Op::write || c.op == Op::read) {
        EXPECT_EQ(c.bytes, size);
        EXPECT_EQ(c.wr_id, c.op == Op::write ? 1u : 2u);
      }
    }
    for (size_t base : {size, 2 * size}) {
      size_t bad = first_mismatch(data, base, size, peer);
      if (bad == SIZE_MAX) continue;
      size_t bad_count = 0;
      for (size_t i = bad; i < size; ++i) bad_count += data[base + i] != pattern(peer, i);
      ADD_FAILURE() << (base == size ? "written by" : "read from") << " the peer: byte " << bad
                    << " is " << int(data[base + bad]) << ", expected " << int(pattern(peer, bad))
                    << "; " << bad_count << " bytes differ";
    }
    boot.barrier();
  });
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, UcxRma,
    ::testing::Combine(::testing::ValuesIn(all_fabrics()),
                       // 9 MiB is over Soft-RoCE's 8 MiB message limit: UCX must split it.
                       ::testing::Values(size_t{64}, size_t{64} << 10, size_t{4} << 20,
                                         size_t{9} << 20)),
    [](const auto& tp) {
      return std::get<0>(tp.param).name + "_" + std::to_string(std::get<1>(tp.param));
    });

TEST(UcxRmaErrors, OutOfRangeIsAFailedPostNamingTheRegion) {
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    TransportOptions o;
    o.ucx_tls = "tcp";
    auto t = make_ucx_transport(o);
    std::vector<uint8_t> buf(4096);
    RegionId reg = t->register_memory(buf.data(), buf.size());
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    EXPECT_EQ(t->post_write(peer, reg, 0, 64, 4090, 1, true), Status::failed);
    EXPECT_NE(t->last_error().find("remote region 0"), std::string::npos) << t->last_error();
    EXPECT_EQ(t->post_read(peer, reg + 1, 0, 64, 0, 1, true), Status::failed);
    EXPECT_NE(t->last_error().find("local region 1"), std::string::npos) << t->last_error();
    EXPECT_EQ(t->post_send(rank, reg, 0, 64, 1, true), Status::failed);
    EXPECT_NE(t->last_error().find("not a connected peer"), std::string::npos) << t->last_error();
    boot.barrier();
  });
}

}  // namespace
}  // namespace dlcnet::test
