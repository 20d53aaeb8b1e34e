#include "ucx/ucx_worker_gate.hpp"

#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace dlcnet::ucx {
namespace {

long membarrier(int cmd) noexcept {
  return syscall(__NR_membarrier, cmd, 0, 0);
}

void relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

}  // namespace

WorkerGate::WorkerGate() noexcept {
  const long supported = membarrier(MEMBARRIER_CMD_QUERY);
  asymmetric_ = supported > 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0 &&
                membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

bool WorkerGate::idle_try_enter() noexcept {
  if (caller_in_.load(std::memory_order_relaxed)) return false;
  idle_in_.store(true, std::memory_order_relaxed);
  if (!asymmetric_) {
    std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with the caller's fence
  } else if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
    idle_in_.store(false, std::memory_order_release);  // no ordering without it: stay out
    return false;
  }
  if (caller_in_.load(std::memory_order_acquire)) {  // the caller came back: it goes first
    idle_in_.store(false, std::memory_order_release);
    return false;
  }
  return true;
}

void WorkerGate::wait_for_idle() const noexcept {
  // The idle thread holds the worker for at most a few dozen progress calls.
  for (unsigned spins = 1; idle_in_.load(std::memory_order_acquire); ++spins) {
    if (spins % 1024 == 0) {
      sched_yield();
    } else {
      relax();
    }
  }
}

}  // namespace dlcnet::ucx
