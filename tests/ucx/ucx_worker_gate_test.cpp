// WorkerGate: the caller and the idle-progress thread are never inside at once, and each gets
// its turns (ucx/ucx_worker_gate.hpp).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "ucx/ucx_worker_gate.hpp"

namespace dlcnet::ucx {
namespace {

TEST(WorkerGate, CallerAndIdleThreadNeverInsideTogether) {
  WorkerGate g;
  std::atomic<int> inside{0};
  std::atomic<int> overlaps{0};
  std::atomic<bool> stop{false};
  uint64_t idle_turns = 0;
  // Visits long enough for the other side to run into them (the idle thread's the longer, as
  // it holds the worker for many progress calls).
  auto visit = [&](int work_units) {
    if (inside.fetch_add(1, std::memory_order_relaxed) != 0) overlaps.fetch_add(1);
    volatile int work = 0;
    for (int i = 0; i < work_units; ++i) work = work + 1;
    inside.fetch_sub(1, std::memory_order_relaxed);
  };
  std::thread idle([&] {
    // A pause between tries, as the transport's idle thread waits between its checks: a
    // thread that retried at once would flood the CPUs with membarrier IPIs, which on a loaded
    // 2-CPU host stretched this 0.7 s test to 46 s.
    while (!stop.load(std::memory_order_relaxed)) {
      if (g.idle_try_enter()) {
        visit(4000);
        ++idle_turns;
        g.idle_leave();
      }
      std::this_thread::sleep_for(std::chrono::microseconds(5));
    }
  });
  uint64_t caller_turns = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(700);
  while (std::chrono::steady_clock::now() < until) {
    for (int k = 0; k < 100; ++k) {
      CallerTurn turn(g);
      visit(50);
      ++caller_turns;
    }
    // Away for a moment, as a caller in a barrier: the idle thread's chance, and the caller
    // comes back while the idle thread may be inside.
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  stop = true;
  idle.join();
  EXPECT_EQ(overlaps.load(), 0) << (g.asymmetric() ? "membarrier" : "fences");
  EXPECT_GT(caller_turns, 0u);
  EXPECT_GT(idle_turns, 0u);
}

}  // namespace
}  // namespace dlcnet::ucx
