// Who may use the UCX worker: the caller's thread (on every datapath call) or the idle-progress
// thread (only while the caller is away, see ucx_transport_datapath.cpp).
//
// The caller's side takes no locked instruction: it announces itself with a plain store and then
// checks the idle thread's flag (Dekker's algorithm). The store-load ordering both sides need is
// paid by the idle thread alone, which comes by at most once a millisecond while the caller is
// away: membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) runs a full barrier on every CPU running a
// thread of this process before it returns, so either the caller sees the idle thread's flag or
// the idle thread sees the caller's. Where the kernel lacks it, the caller takes a full fence
// instead. (A locked exchange per call was 79 % of poll()'s own time on this project's virtual
// machine, about 30 ns a call.)
//
// One caller thread at a time: Transport's datapath is not for concurrent callers.
#pragma once

#include <atomic>

namespace dlcnet::ucx {

class WorkerGate {
 public:
  WorkerGate() noexcept;
  WorkerGate(const WorkerGate&) = delete;
  WorkerGate& operator=(const WorkerGate&) = delete;

  // The caller's side: enter() waits while the idle thread holds the worker.
  void enter() noexcept {
    for (;;) {
      caller_in_.store(true, std::memory_order_relaxed);
      if (asymmetric_) {
        std::atomic_signal_fence(std::memory_order_seq_cst);  // the idle side's barrier pairs
      } else {
        std::atomic_thread_fence(std::memory_order_seq_cst);
      }
      if (!idle_in_.load(std::memory_order_acquire)) return;
      caller_in_.store(false, std::memory_order_release);
      wait_for_idle();
    }
  }
  void leave() noexcept { caller_in_.store(false, std::memory_order_release); }

  // The idle thread's side: true when it may use the worker (then idle_leave()).
  bool idle_try_enter() noexcept;
  void idle_leave() noexcept { idle_in_.store(false, std::memory_order_release); }

  bool asymmetric() const noexcept { return asymmetric_; }

 private:
  void wait_for_idle() const noexcept;

  std::atomic<bool> caller_in_{false};
  std::atomic<bool> idle_in_{false};
  bool asymmetric_ = false;  // membarrier(PRIVATE_EXPEDITED) is available and registered
};

// The caller's turn for one call (std::lock_guard-like).
class CallerTurn {
 public:
  explicit CallerTurn(WorkerGate& g) noexcept : g_(g) { g_.enter(); }
  ~CallerTurn() { g_.leave(); }
  CallerTurn(const CallerTurn&) = delete;
  CallerTurn& operator=(const CallerTurn&) = delete;

 private:
  WorkerGate& g_;
};

}  // namespace dlcnet::ucx
