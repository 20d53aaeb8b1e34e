// The locked-memory limit's text and the stall guard (core/memlock.hpp, core/stall_guard.hpp).
#include "core/memlock.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "core/stall_guard.hpp"

namespace dlcnet {
namespace {

// Lowers the soft limit for one test and puts it back (the hard limit stays, so it can).
class SoftMemlock {
 public:
  explicit SoftMemlock(rlim_t soft) {
    getrlimit(RLIMIT_MEMLOCK, &saved_);
    rlimit lower = saved_;
    lower.rlim_cur = soft;
    ok_ = setrlimit(RLIMIT_MEMLOCK, &lower) == 0;
  }
  ~SoftMemlock() { setrlimit(RLIMIT_MEMLOCK, &saved_); }
  bool ok() const { return ok_; }

 private:
  rlimit saved_{};
  bool ok_ = false;
};

TEST(Memlock, TheFixNamesTheLimitInForce) {
  {
    SoftMemlock low(64 * 1024);
    ASSERT_TRUE(low.ok());
    EXPECT_EQ(memlock_limit_text(), "64 KiB");
    const std::string fix = memlock_fix_text();
    EXPECT_NE(fix.find("raise ulimit -l (locked-memory limit is 64 KiB"), std::string::npos) << fix;
    EXPECT_NE(fix.find("/etc/security/limits.conf"), std::string::npos) << fix;
  }
  {
    SoftMemlock eight(8 * 1024 * 1024);
    ASSERT_TRUE(eight.ok());
    EXPECT_EQ(memlock_limit_text(), "8 MiB");
    // Root holds CAP_IPC_LOCK, which the limit does not bind; others are bound by it.
    if (geteuid() != 0) {
      EXPECT_EQ(memlock_pinnable_bytes(), uint64_t{8} << 20);
    }
  }
}

TEST(StallGuard, AScopeThatEndsInTimeLeavesNoTrace) {
  const auto t0 = std::chrono::steady_clock::now();
  { const StallGuard g("a quick call", std::chrono::milliseconds(5000)); }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
}

TEST(StallGuardDeathTest, AStuckScopeEndsTheProcessWithWhatItWasDoing) {
  EXPECT_EXIT(
      {
        const StallGuard g("opening the ucx transport", std::chrono::milliseconds(200));
        std::this_thread::sleep_for(std::chrono::seconds(10));
      },
      testing::ExitedWithCode(1),
      "dlcnet: error: opening the ucx transport has not returned after 0.2 s");
}

}  // namespace
}  // namespace dlcnet
