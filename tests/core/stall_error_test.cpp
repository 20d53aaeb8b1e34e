// A wait's ranks carried by another rank's failure seen late in the wait (core/stall_error.hpp).
#include "core/stall_error.hpp"

#include <gtest/gtest.h>

namespace dlcnet {
namespace {

// Runs rethrow_during_wait from the handler of `failure`, as a wait does; returns what it threw.
std::exception_ptr during_wait(int64_t waited_ns, int64_t limit_ns, std::vector<int> peers) {
  try {
    try {
      throw Error("rank 1 (h:1) failed during run: no start from the server");
    } catch (const Error& e) {
      rethrow_during_wait(e, "bursts incomplete", waited_ns, limit_ns, std::move(peers));
    }
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

TEST(StallError, AWaitPastHalfItsLimitNamesItsRanks) {
  try {
    std::rethrow_exception(during_wait(3'000'000'000, 3'750'000'000, {2}));
  } catch (const StallError& e) {
    EXPECT_EQ(e.peers(), std::vector<int>{2});
    EXPECT_EQ(std::string(e.what()),
              "bursts incomplete for 3000 ms, when rank 1 (h:1) failed during run: no start "
              "from the server");
  }
}

TEST(StallError, AnEarlierWaitOrOneForNoRankPassesTheErrorOn) {
  for (auto p : {during_wait(1'000'000'000, 3'750'000'000, {2}),
                 during_wait(3'000'000'000, 3'750'000'000, {})}) {
    try {
      std::rethrow_exception(p);
    } catch (const StallError&) {
      ADD_FAILURE() << "became a StallError";
    } catch (const Error& e) {
      EXPECT_TRUE(stalled_on(e).empty());
      EXPECT_NE(std::string(e.what()).find("rank 1 (h:1) failed"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace dlcnet
