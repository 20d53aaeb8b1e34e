// The worker's lock. The caller's datapath takes it on every call and the idle-progress thread
// only tries it, so it is almost never contended: a test-and-set lock costs one atomic exchange
// and a store, where std::mutex cost two library calls and two locked instructions (30 % of a
// ping-pong client's time over shared memory, 1.24x ucx_perftest's latency).
#pragma once

#include <sched.h>

#include <atomic>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace dlcnet::ucx {

class SpinLock {
 public:
  void lock() noexcept {
    while (flag_.exchange(true, std::memory_order_acquire)) {
      // Wait on a plain load (no cache-line ping-pong); give the CPU away now and then in case
      // the holder was preempted on a crowded host.
      for (unsigned spins = 1; flag_.load(std::memory_order_relaxed); ++spins) {
        if (spins % 1024 == 0) {
          sched_yield();
        } else {
          relax();
        }
      }
    }
  }
  bool try_lock() noexcept {
    return !flag_.load(std::memory_order_relaxed) &&
           !flag_.exchange(true, std::memory_order_acquire);
  }
  void unlock() noexcept { flag_.store(false, std::memory_order_release); }

 private:
  static void relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }
  std::atomic<bool> flag_{false};
};

}  // namespace dlcnet::ucx
