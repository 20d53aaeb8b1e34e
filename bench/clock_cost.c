/* clock_cost.c: what one clock read costs here, and whether the CPU claims an invariant TSC.
 *
 * dlc-bench's now_ns() reads the TSC only when CPUID says "invariant TSC"; otherwise it calls
 * clock_gettime(CLOCK_MONOTONIC). perftest always reads the TSC. In a QEMU TCG guest the bit
 * is absent and the kernel's clocksource is not the TSC, so this tells how much each of
 * dlc-bench's clock reads costs there compared with perftest's.
 *
 * build: cc -O2 -o /tmp/clock_cost bench/clock_cost.c      run: /tmp/clock_cost
 * Prints one line of key=value pairs.
 */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

static int64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(void) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  int invariant = 0;
  if (__get_cpuid(0x80000000u, &a, &b, &c, &d) && a >= 0x80000007u) {
    __get_cpuid(0x80000007u, &a, &b, &c, &d);
    invariant = (d >> 8) & 1;
  }
  char source[64] = "?";
  FILE* f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
  if (f) {
    if (fgets(source, sizeof source, f)) source[strcspn(source, "\n")] = 0;
    fclose(f);
  }
  /* Time a fixed number of calls of each kind against CLOCK_MONOTONIC. */
  const int n = 20000;
  volatile int64_t sink = 0;
  int64_t t0 = mono_ns();
  for (int i = 0; i < n; ++i) sink += mono_ns();
  int64_t t1 = mono_ns();
  for (int i = 0; i < n; ++i) sink += (int64_t)__rdtsc();
  int64_t t2 = mono_ns();
  printf("invariant_tsc=%d clocksource=%s clock_gettime_ns=%.1f rdtsc_ns=%.1f\n", invariant,
         source, (double)(t1 - t0) / n, (double)(t2 - t1) / n);
  return (int)(sink & 0);
}
