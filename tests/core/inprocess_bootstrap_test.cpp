#include "core/inprocess_bootstrap.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "core/error.hpp"

namespace dlcnet {
namespace {

TEST(InProcessBootstrap, AlltoallDeliversEachColumnRepeatedly) {
  const int n = 4;
  auto group = make_inprocess_group(n);
  std::vector<std::thread> threads;
  std::vector<int> failures(n, 0);
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      for (int round = 0; round < 50; ++round) {
        std::vector<Bytes> out(n);
        for (int d = 0; d < n; ++d) out[d] = {uint8_t(r), uint8_t(d), uint8_t(round)};
        auto in = group[r]->alltoall(out);
        for (int s = 0; s < n; ++s) {
          Bytes want = s == r ? Bytes{} : Bytes{uint8_t(s), uint8_t(r), uint8_t(round)};
          if (in[s] != want) ++failures[r];
        }
        auto all = group[r]->allgather({uint8_t(r)});
        for (int s = 0; s < n; ++s)
          if (all[s] != Bytes{uint8_t(s)}) ++failures[r];
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int r = 0; r < n; ++r) EXPECT_EQ(failures[r], 0) << "rank " << r;
}

TEST(InProcessBootstrap, MissingRankTimesOut) {
  auto group = make_inprocess_group(2, std::chrono::milliseconds(100));
  EXPECT_THROW(group[0]->barrier(), TimeoutError);
}

}  // namespace
}  // namespace dlcnet
