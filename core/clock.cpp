#include "core/clock.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "core/tsc_calibration.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace dlcnet {
namespace detail {
namespace {

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
  TscReaders r;
  r.tsc = [] { return static_cast<uint64_t>(__rdtsc()); };
  r.monotonic = [] { return monotonic_ns(); };
  r.sleep = [](int64_t ns) { std::this_thread::sleep_for(std::chrono::nanoseconds(ns)); };
  const TscCalibration c = calibrate_tsc(r);
  if (!c.usable) return s;
  s.ns_per_tick = c.ns_per_tick;
  s.base_tick = static_cast<uint64_t>(c.base_tick);
  s.base_ns = c.base_ns;
  s.error_ppm = c.error_ppm;
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
  char buf[96];
  std::snprintf(buf, sizeof buf, "tsc (%.3f GHz, calibrated against CLOCK_MONOTONIC to %.0f ppm)",
                1.0 / detail::g_tsc.ns_per_tick, std::max(1.0, detail::g_tsc.error_ppm));
  return buf;
}

}  // namespace dlcnet
