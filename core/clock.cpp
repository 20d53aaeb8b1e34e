#include "core/clock.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace dlcnet {
namespace detail {
namespace {

// Long enough that clock_gettime's granularity is a few parts per million of it, short enough
// not to slow every start noticeably.
constexpr int kCalibrationMs = 20;

bool invariant_tsc() {
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &a, &b, &c, &d);
  return (d & (1u << 8)) != 0;  // "Invariant TSC": constant rate, runs in every C-state
#else
  return false;
#endif
}

// The kernel keeps the TSC as its clocksource only while its watchdog finds it steady (or when
// booted with tsc=reliable): a QEMU guest's CPU model claims no invariant TSC, yet its TSC is
// the host's, and its kernel may say so.
bool kernel_uses_tsc() {
  std::ifstream f("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  return f >> name && name == "tsc";
}

bool tsc_trusted() {
  const char* env = std::getenv("DLCNET_CLOCK");
  if (env && std::strcmp(env, "monotonic") == 0) return false;
  if (env && std::strcmp(env, "tsc") == 0) return true;
  return invariant_tsc() || kernel_uses_tsc();
}

TscScale calibrate() {
  TscScale s;
  if (!tsc_trusted()) return s;
#if defined(__x86_64__)
  const int64_t t0 = monotonic_ns();
  const uint64_t c0 = __rdtsc();
  std::this_thread::sleep_for(std::chrono::milliseconds(kCalibrationMs));
  const int64_t t1 = monotonic_ns();
  const uint64_t c1 = __rdtsc();
  if (c1 <= c0 || t1 <= t0) return s;
  s.ns_per_tick = static_cast<double>(t1 - t0) / static_cast<double>(c1 - c0);
  s.base_tick = c1;
  s.base_ns = t1;
  s.usable = true;
#endif
  return s;
}

}  // namespace

TscScale g_tsc = calibrate();
int64_t g_fallback_shift = 0;

}  // namespace detail

void shift_clock_for_tests(int64_t ns) noexcept {
  detail::g_tsc.base_ns += ns;
  detail::g_fallback_shift += ns;
}

std::string clock_description() {
  if (!detail::g_tsc.usable) return "CLOCK_MONOTONIC";
  char buf[64];
  std::snprintf(buf, sizeof buf, "tsc (%.3f GHz, calibrated against CLOCK_MONOTONIC)",
                1.0 / detail::g_tsc.ns_per_tick);
  return buf;
}

}  // namespace dlcnet
