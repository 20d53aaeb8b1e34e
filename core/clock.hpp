// The one clock every measurement uses: nanoseconds, monotonic, cheap.
//
// On x86-64 it reads the TSC (about 20 cycles, no system call) scaled by a factor calibrated
// against CLOCK_MONOTONIC at start-up, as perftest reads cycles, when the CPU claims an
// invariant TSC or the kernel's own clocksource is the TSC (DLCNET_CLOCK=tsc forces it). This
// keeps the clock out of the latency being measured where clock_gettime is slow. Otherwise,
// or with DLCNET_CLOCK=monotonic, it is CLOCK_MONOTONIC (a QEMU guest whose kernel fell back
// to the HPET pays ~3 us per read; scripts/rdma-run.sh boots with tsc=reliable). Cross-host
// comparisons go through the offset estimates of the replay, never through raw values.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace dlcnet {

inline int64_t monotonic_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// This thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID): what a measurement of work on a
// shared machine counts (the trace loaders, the model's speed).
inline double thread_cpu_s() noexcept {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

namespace detail {
struct TscScale {
  bool usable = false;
  uint64_t base_tick = 0;
  int64_t base_ns = 0;
  double ns_per_tick = 0;
  double error_ppm = 0;  // bound of the calibration's rate error (core/tsc_calibration.hpp)
};
extern TscScale g_tsc;            // calibrated once, before main()
extern int64_t g_fallback_shift;  // added to CLOCK_MONOTONIC when the TSC is not used
}  // namespace detail

inline int64_t now_ns() noexcept {
#if defined(__x86_64__)
  if (detail::g_tsc.usable) {
    const uint64_t ticks = __rdtsc() - detail::g_tsc.base_tick;
    return detail::g_tsc.base_ns +
           static_cast<int64_t>(static_cast<double>(ticks) * detail::g_tsc.ns_per_tick);
  }
#endif
  return monotonic_ns() + detail::g_fallback_shift;
}

// Tests only: moves this process's now_ns() by `ns` from here on, so that ranks on one host
// get clocks as far apart as different hosts' (a job's clock alignment must find and undo it).
// Call before any time is taken (start of main, before other threads).
void shift_clock_for_tests(int64_t ns) noexcept;

inline double ns_to_s(int64_t ns) noexcept {
  return static_cast<double>(ns) * 1e-9;
}

// "tsc (2.899 GHz, calibrated against CLOCK_MONOTONIC to 3 ppm)" or "CLOCK_MONOTONIC", for
// report contexts.
std::string clock_description();

}  // namespace dlcnet
