// Transport::allocate_memory() over UCX: memory UCX allocates and maps itself is zeroed, usable
// as a region for puts, gets and messages, and refused after connect() like a registration.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/error.hpp"
#include "ucx/ucx_transport.hpp"
#include "ucx_test_support.hpp"

namespace dlcnet::test {
namespace {

class UcxAllocate : public ::testing::TestWithParam<Fabric> {
 protected:
  void SetUp() override {
    if (GetParam().needs_rdma && rdma_device().empty())
      GTEST_SKIP() << "no RDMA device in /sys/class/infiniband";
  }
};

constexpr size_t kSize = size_t{1} << 20;

// Each rank writes its pattern into the peer's allocated region at [kSize, 2 kSize) and reads
// the peer's [0, kSize) into its own [2 kSize, 3 kSize), then says so with a message.
TEST_P(UcxAllocate, PutsAndGetsBetweenAllocatedRegions) {
  run_ranks_ok(2, [&](int rank, Bootstrap& boot) {
    auto t = make_ucx_transport(options_for(GetParam()));
    const Allocation a = t->allocate_memory(3 * kSize + 16);
    ASSERT_NE(a.data, nullptr);
    EXPECT_TRUE(std::all_of(a.data, a.data + 3 * kSize + 16, [](uint8_t b) { return b == 0; }));
    for (size_t i = 0; i < kSize; ++i) a.data[i] = pattern(rank, i);
    const int peer = 1 - rank;
    t->connect(boot, std::span<const int>(&peer, 1));
    EXPECT_THROW(t->allocate_memory(64), Error);

    const size_t ctl = 3 * kSize;
    post_or_throw(
        *t, [&] { return t->post_recv(peer, a.region, ctl, 8, 100); }, "post_recv");
    post_or_throw(
        *t, [&] { return t->post_write(peer, a.region, 0, kSize, kSize, 1, true); }, "write");
    post_or_throw(
        *t, [&] { return t->post_read(peer, a.region, 2 * kSize, kSize, 0, 2, true); }, "read");
    std::vector<Completion> got;
    auto has = [&](Op op) {
      return std::any_of(got.begin(), got.end(), [&](const Completion& c) { return c.op == op; });
    };
    while (!has(Op::write) || !has(Op::read)) {
      auto more = wait_completions(*t, 1);
      got.insert(got.end(), more.begin(), more.end());
    }
    post_or_throw(
        *t, [&] { return t->post_send(peer, a.region, ctl + 8, 8, 3, true); }, "send");
    while (!has(Op::recv) || !has(Op::send)) {
      auto more = wait_completions(*t, 1);
      got.insert(got.end(), more.begin(), more.end());
    }
    for (size_t base : {kSize, 2 * kSize}) {
      size_t bad = SIZE_MAX;
      for (size_t i = 0; i < kSize && bad == SIZE_MAX; ++i)
        if (a.data[base + i] != pattern(peer, i)) bad = i;
      EXPECT_EQ(bad, SIZE_MAX) << (base == kSize ? "written by" : "read from") << " the peer";
    }
    boot.barrier();
  });
}

INSTANTIATE_TEST_SUITE_P(Fabrics, UcxAllocate, ::testing::ValuesIn(all_fabrics()),
                         [](const auto& tp) { return tp.param.name; });

}  // namespace
}  // namespace dlcnet::test
