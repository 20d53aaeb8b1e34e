/* stall_probe.c: how often this machine takes the CPU away from a spinning thread, and for how
 * long; the floor under any replay's scheduling error here (docs/replay.md, "Fidelity").
 *
 * N threads (default: one per CPU, like the replay's spinning ranks) each read CLOCK_MONOTONIC
 * in a tight loop for S seconds. A gap between two consecutive reads longer than THRESHOLD
 * (default 5 us; a read costs well under 1 us) is time the thread did not run: a timer tick,
 * an interrupt, the hypervisor running something else. A post that falls due at a random
 * instant inside such a gap is late by the rest of the gap, so over the whole run
 *   P(lateness > x) = sum over gaps of max(0, gap - x) / run time,
 * and its 99th percentile is the lowest p99 scheduling error any single-threaded engine could
 * reach on this machine with this many busy threads.
 *
 * build: cc -O2 -pthread -o /tmp/stall_probe bench/stall_probe.c
 * run:   /tmp/stall_probe [SECONDS] [THREADS] [THRESHOLD_NS]
 * Prints one JSON object on stdout.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_GAPS (1 << 20)

struct probe {
  double seconds;
  uint64_t threshold_ns;
  uint64_t run_ns;
  uint64_t n_gaps;
  uint64_t* gaps; /* MAX_GAPS entries */
};

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void* spin(void* arg) {
  struct probe* p = arg;
  const uint64_t start = mono_ns();
  const uint64_t end = start + (uint64_t)(p->seconds * 1e9);
  uint64_t prev = start;
  for (;;) {
    const uint64_t t = mono_ns();
    if (t - prev > p->threshold_ns && p->n_gaps < MAX_GAPS) p->gaps[p->n_gaps++] = t - prev;
    prev = t;
    if (t >= end) break;
  }
  p->run_ns = prev - start;
  return NULL;
}

/* Lateness x with sum(max(0, g - x)) = q * run: bisection over [0, longest gap]. */
static double lateness_quantile(const struct probe* ps, int n, double q) {
  double total = 0, hi = 0;
  for (int i = 0; i < n; ++i) {
    total += (double)ps[i].run_ns;
    for (uint64_t k = 0; k < ps[i].n_gaps; ++k)
      if ((double)ps[i].gaps[k] > hi) hi = (double)ps[i].gaps[k];
  }
  double lo = 0;
  for (int it = 0; it < 60; ++it) {
    const double x = (lo + hi) / 2;
    double tail = 0;
    for (int i = 0; i < n; ++i)
      for (uint64_t k = 0; k < ps[i].n_gaps; ++k)
        if ((double)ps[i].gaps[k] > x) tail += (double)ps[i].gaps[k] - x;
    if (tail / total > q)
      lo = x;
    else
      hi = x;
  }
  return hi;
}

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? atof(argv[1]) : 3.0;
  long threads = argc > 2 ? atol(argv[2]) : sysconf(_SC_NPROCESSORS_ONLN);
  const uint64_t threshold = argc > 3 ? strtoull(argv[3], NULL, 10) : 5000;
  if (seconds <= 0 || threads < 1 || threads > 256) {
    fprintf(stderr, "usage: stall_probe [SECONDS>0] [THREADS 1..256] [THRESHOLD_NS]\n");
    return 2;
  }
  struct probe* ps = calloc((size_t)threads, sizeof *ps);
  pthread_t* tid = calloc((size_t)threads, sizeof *tid);
  if (ps == NULL || tid == NULL) return 1;
  for (long i = 0; i < threads; ++i) {
    ps[i].seconds = seconds;
    ps[i].threshold_ns = threshold;
    ps[i].gaps = malloc(MAX_GAPS * sizeof(uint64_t));
    if (ps[i].gaps == NULL || pthread_create(&tid[i], NULL, spin, &ps[i]) != 0) return 1;
  }
  uint64_t gaps = 0, over20 = 0, longest = 0;
  double lost = 0, run = 0;
  for (long i = 0; i < threads; ++i) {
    pthread_join(tid[i], NULL);
    run += (double)ps[i].run_ns;
    for (uint64_t k = 0; k < ps[i].n_gaps; ++k) {
      const uint64_t g = ps[i].gaps[k];
      ++gaps;
      lost += (double)g;
      if (g > 20000) ++over20;
      if (g > longest) longest = g;
    }
  }
  const double p99 = lateness_quantile(ps, (int)threads, 0.01);
  const double p999 = lateness_quantile(ps, (int)threads, 0.001);
  printf(
      "{\"seconds\": %.3f, \"threads\": %ld, \"threshold_ns\": %llu, \"gaps\": %llu, "
      "\"gaps_over_20us_per_s\": %.1f, \"time_lost_fraction\": %.5f, \"longest_gap_s\": %.9f, "
      "\"lateness_p99_s\": %.9f, \"lateness_p999_s\": %.9f}\n",
      run / threads / 1e9, threads, (unsigned long long)threshold, (unsigned long long)gaps,
      (double)over20 / (run / 1e9), lost / run, (double)longest / 1e9, p99 / 1e9, p999 / 1e9);
  return 0;
}
