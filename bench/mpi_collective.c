/* mpi_collective.c: an MPI collective timed the way nccl-tests times one, the reference of
 * bench/ring_compare.sh for `dlc-bench ring` (issue 14, "Benchmark against a real MPI"; issue
 * 29 for the rooted ones).
 *
 *   mpirun -np N mpi_collective [-C allreduce|broadcast|reduce|gather|scatter]
 *                               (-b MIN -e MAX [-f FACTOR] | -s SIZE) [-n ITERS] [-w WARMUP]
 *                               [-c 0|1] [-j OUT.json]
 *
 * float32, MPI_SUM, root 0, out of place (send and receive buffers apart, but MPI_Bcast's one
 * buffer), every rank's buffers allocated once for the largest size. The size is the whole
 * vector, as nccl-tests and dlc-bench ring count it; gather and scatter move N equal chunks of
 * it (the size rounded down to a multiple of N floats, as nccl-tests does). Per size: -w
 * warm-up calls, MPI_Barrier, -n calls back to back, each rank's elapsed time / n, averaged over
 * the ranks (nccl-tests' "time"; the slowest and fastest rank's are in the JSON too). algbw =
 * bytes / time, busbw = algbw x nccl-tests' factor: 2(N-1)/N all-reduce, 1 broadcast and
 * reduce, (N-1)/N gather and scatter; in GB/s = 1e9 bytes/s as nccl-tests prints them.
 *
 * -c 1 (the default) checks the data after the timed calls, as nccl-tests does: the receive
 * buffer is filled with NaN, one more call runs, and every element a rank receives is compared
 * with what it must be. Rank r's element i is (7i + 3r) mod 32 + 1, small integers, so every
 * partial sum in any order is exact in float32. #wrong counts wrong elements over all ranks; the
 * exit status is 1 when any is wrong. Sizes are powers of 1024 with K, M, G; a size is rounded
 * down to whole floats (as nccl-tests does).
 *
 * Sizes are swept like nccl-tests: from -b, multiplied by -f (default 2) up to -e inclusive.
 * Build: mpicc -O2 -Wall -Wextra -Werror -o mpi_allreduce mpi_allreduce.c (the bench script
 * does it; not part of the CMake build).
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZES 256

static void usage(void) {
  fprintf(stderr,
          "usage: mpi_collective [-C allreduce|broadcast|reduce|gather|scatter]\n"
          "                      (-b MIN -e MAX [-f FACTOR] | -s SIZE) [-n ITERS] [-w WARMUP]\n"
          "                      [-c 0|1] [-j OUT.json]\n"
          "  sizes in bytes with K, M, G suffixes (powers of 1024); float32 MPI_SUM, root 0\n");
}

enum coll { ALLREDUCE, BROADCAST, REDUCE, GATHER, SCATTER };
static const char *const coll_names[] = {"allreduce", "broadcast", "reduce", "gather", "scatter"};

/* Bytes with an optional K/M/G suffix; 0 on a malformed value. */
static uint64_t parse_size(const char *s) {
  char *end = NULL;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s) return 0;
  uint64_t mult = 1;
  if (*end == 'K' || *end == 'k') mult = 1024ULL, end++;
  else if (*end == 'M' || *end == 'm') mult = 1024ULL * 1024, end++;
  else if (*end == 'G' || *end == 'g') mult = 1024ULL * 1024 * 1024, end++;
  if (*end == 'B' || *end == 'b') end++;
  if (*end != '\0') return 0;
  return (uint64_t)v * mult;
}

static long parse_long(const char *s, long lo, long hi, const char *what) {
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "mpi_collective: %s: %ld to %ld, not '%s'\n", what, lo, hi, s);
    exit(2);
  }
  return v;
}

static float input_value(size_t i, int rank) { return (float)((7 * (i % 32) + 3 * (size_t)rank) % 32 + 1); }

static double sum_value(size_t i, int ranks) {
  double e = 0;
  for (int r = 0; r < ranks; r++) e += (double)input_value(i, r);
  return e;
}

/* One call of the collective on `count` floats (gather and scatter: count / ranks per rank). */
static void run_once(enum coll c, float *send, float *recv, size_t count, int rank, int ranks) {
  const int per = (int)(count / (size_t)ranks);
  switch (c) {
    case ALLREDUCE:
      MPI_Allreduce(send, recv, (int)count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      break;
    case BROADCAST: /* the root's vector is its send buffer; the others receive in place */
      MPI_Bcast(rank == 0 ? send : recv, (int)count, MPI_FLOAT, 0, MPI_COMM_WORLD);
      break;
    case REDUCE:
      MPI_Reduce(send, recv, (int)count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
      break;
    case GATHER: /* rank r's chunk of the vector into the root's vector */
      MPI_Gather(send + (size_t)rank * (size_t)per, per, MPI_FLOAT, recv, per, MPI_FLOAT, 0,
                 MPI_COMM_WORLD);
      break;
    case SCATTER: /* the root's vector, chunk r to rank r */
      MPI_Scatter(send, per, MPI_FLOAT, recv, per, MPI_FLOAT, 0, MPI_COMM_WORLD);
      break;
  }
}

/* Wrong elements of what this rank received (NaN-filled before the call). */
static long long wrong_received(enum coll c, const float *recv, size_t count, int rank, int ranks) {
  const size_t per = count / (size_t)ranks;
  long long wrong = 0;
  switch (c) {
    case ALLREDUCE:
      for (size_t i = 0; i < count; i++) wrong += (double)recv[i] != sum_value(i, ranks);
      break;
    case BROADCAST:
      if (rank != 0)
        for (size_t i = 0; i < count; i++) wrong += recv[i] != input_value(i, 0);
      break;
    case REDUCE:
      if (rank == 0)
        for (size_t i = 0; i < count; i++) wrong += (double)recv[i] != sum_value(i, ranks);
      break;
    case GATHER:
      if (rank == 0)
        for (size_t i = 0; i < per * (size_t)ranks; i++)
          wrong += recv[i] != input_value(i, (int)(i / per));
      break;
    case SCATTER:
      for (size_t j = 0; j < per; j++)
        wrong += recv[j] != input_value((size_t)rank * per + j, 0);
      break;
  }
  return wrong;
}

static double bus_factor(enum coll c, int ranks) {
  switch (c) {
    case ALLREDUCE:
      return 2.0 * (ranks - 1) / ranks;
    case BROADCAST:
    case REDUCE:
      return 1.0;
    case GATHER:
    case SCATTER:
      return (double)(ranks - 1) / ranks;
  }
  return 1.0;
}

struct result {
  uint64_t size_bytes, count;
  double time_s, time_min_rank_s, time_max_rank_s, algbw, busbw;
  long long wrong;
  int checked;
};

static void json_escape(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

int main(int argc, char **argv) {
  uint64_t min_b = 0, max_b = 0, one = 0, factor = 2;
  enum coll coll = ALLREDUCE;
  long iters = 20, warmup = 5, check = 1;
  const char *json_path = NULL;
  for (int a = 1; a < argc; a++) {
    const char *o = argv[a];
    if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) {
      usage();
      return 0;
    }
    if (a + 1 >= argc) {
      fprintf(stderr, "mpi_collective: %s needs a value\n", o);
      usage();
      return 2;
    }
    const char *v = argv[++a];
    if (strcmp(o, "-C") == 0) {
      int k = 0;
      while (k < 5 && strcmp(v, coll_names[k]) != 0) k++;
      if (k == 5) {
        fprintf(stderr, "mpi_collective: -C: allreduce, broadcast, reduce, gather or scatter, not '%s'\n", v);
        return 2;
      }
      coll = (enum coll)k;
    } else if (strcmp(o, "-b") == 0) min_b = parse_size(v);
    else if (strcmp(o, "-e") == 0) max_b = parse_size(v);
    else if (strcmp(o, "-s") == 0) one = parse_size(v);
    else if (strcmp(o, "-f") == 0) factor = (uint64_t)parse_long(v, 2, 1024, "-f");
    else if (strcmp(o, "-n") == 0) iters = parse_long(v, 1, 100000000, "-n");
    else if (strcmp(o, "-w") == 0) warmup = parse_long(v, 0, 100000000, "-w");
    else if (strcmp(o, "-c") == 0) check = parse_long(v, 0, 1, "-c");
    else if (strcmp(o, "-j") == 0 || strcmp(o, "--json") == 0) json_path = v;
    else {
      fprintf(stderr, "mpi_collective: unknown option %s\n", o);
      usage();
      return 2;
    }
  }
  if (one) min_b = max_b = one;
  if (min_b < 4 || max_b < min_b) {
    fprintf(stderr, "mpi_collective: sizes: -s SIZE or -b MIN -e MAX with 4 <= MIN <= MAX\n");
    usage();
    return 2;
  }

  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  uint64_t sizes[MAX_SIZES];
  int nsizes = 0;
  for (uint64_t s = min_b; s <= max_b && nsizes < MAX_SIZES; s *= factor) {
    sizes[nsizes++] = s;
    if (s > UINT64_MAX / factor) break;
  }
  size_t max_count = (size_t)(max_b / sizeof(float));
  float *send = malloc(max_count * sizeof(float));
  float *recv = malloc(max_count * sizeof(float));
  if (!send || !recv) {
    fprintf(stderr, "mpi_collective: rank %d: cannot allocate 2 x %llu bytes\n", rank,
            (unsigned long long)(max_count * sizeof(float)));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (size_t i = 0; i < max_count; i++) send[i] = input_value(i, rank);
  memset(recv, 0, max_count * sizeof(float));

  struct result res[MAX_SIZES];
  long long wrong_total = 0;
  double busbw_sum = 0;
  if (rank == 0) {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl) *nl = '\0';
    printf("# mpi_collective: %s on %d ranks, float sum, root 0, -n %ld -w %ld -c %ld; %s\n",
           coll_names[coll], ranks, iters, warmup, check, lib);
    printf("#%12s %12s %6s %6s %11s %8s %8s %8s\n", "size", "count", "type", "redop", "time(us)",
           "algbw", "busbw", "#wrong");
    printf("#%12s %12s %6s %6s %11s %8s %8s %8s\n", "(B)", "(elements)", "", "", "", "(GB/s)",
           "(GB/s)", "");
    fflush(stdout);
  }
  for (int k = 0; k < nsizes; k++) {
    size_t count = (size_t)(sizes[k] / sizeof(float));
    if (coll == GATHER || coll == SCATTER) count -= count % (size_t)ranks;
    uint64_t bytes = (uint64_t)count * sizeof(float);
    for (long w = 0; w < warmup; w++) run_once(coll, send, recv, count, rank, ranks);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long it = 0; it < iters; it++) run_once(coll, send, recv, count, rank, ranks);
    double mine = (MPI_Wtime() - t0) / (double)iters;
    double sum = 0, lo = 0, hi = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    long long wrong = 0;
    if (check) {
      for (size_t i = 0; i < count; i++) recv[i] = NAN;
      run_once(coll, send, recv, count, rank, ranks);
      long long mine_wrong = wrong_received(coll, recv, count, rank, ranks);
      MPI_Allreduce(&mine_wrong, &wrong, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    }
    struct result *r = &res[k];
    r->size_bytes = bytes;
    r->count = count;
    r->time_s = sum / ranks;
    r->time_min_rank_s = lo;
    r->time_max_rank_s = hi;
    r->algbw = r->time_s > 0 ? (double)bytes / r->time_s / 1e9 : 0;
    r->busbw = r->algbw * bus_factor(coll, ranks);
    r->wrong = wrong;
    r->checked = (int)check;
    wrong_total += wrong;
    busbw_sum += r->busbw;
    if (rank == 0) {
      char w[32];
      if (check) snprintf(w, sizeof w, "%lld", wrong);
      else snprintf(w, sizeof w, "N/A");
      printf(" %12llu %12llu %6s %6s %11.2f %8.3f %8.3f %8s\n", (unsigned long long)bytes,
             (unsigned long long)count, "float", "sum", r->time_s * 1e6, r->algbw, r->busbw, w);
      fflush(stdout);
    }
  }
  if (rank == 0) {
    printf("# wrong total: %lld; avg busbw: %.3f GB/s\n", wrong_total, busbw_sum / nsizes);
    if (json_path) {
      FILE *f = fopen(json_path, "w");
      if (!f) {
        fprintf(stderr, "mpi_collective: cannot write %s\n", json_path);
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
      char lib[MPI_MAX_LIBRARY_VERSION_STRING];
      int len = 0;
      MPI_Get_library_version(lib, &len);
      char *nl = strchr(lib, '\n');
      if (nl) *nl = '\0';
      fprintf(f, "{\"schema\": \"dlcnet.mpi_collective/1\", \"tool\": \"bench/mpi_collective.c\", ");
      fprintf(f, "\"mpi_library\": ");
      json_escape(f, lib);
      fprintf(f,
              ", \"collective\": \"%s\", \"root\": 0, \"ranks\": %d, \"type\": \"float\", "
              "\"redop\": \"sum\", \"in_place\": false, \"check\": %s, \"iterations\": %ld, "
              "\"warmup\": %ld,\n \"sizes\": [",
              coll_names[coll], ranks, check ? "true" : "false", iters, warmup);
      for (int k = 0; k < nsizes; k++) {
        struct result *r = &res[k];
        char w[32];
        if (r->checked) snprintf(w, sizeof w, "%lld", r->wrong);
        else snprintf(w, sizeof w, "null");
        fprintf(f,
                "%s\n  {\"size_bytes\": %llu, \"count\": %llu, \"time_s\": %.9g, "
                "\"time_min_rank_s\": %.9g, \"time_max_rank_s\": %.9g, \"algbw_GBps\": %.6g, "
                "\"busbw_GBps\": %.6g, \"wrong\": %s, \"iterations\": %ld}",
                k ? "," : "", (unsigned long long)r->size_bytes, (unsigned long long)r->count, r->time_s,
                r->time_min_rank_s, r->time_max_rank_s, r->algbw, r->busbw, w, iters);
      }
      fprintf(f, "],\n \"wrong_total\": %lld, \"avg_busbw_GBps\": %.6g}\n", wrong_total,
              busbw_sum / nsizes);
      fclose(f);
    }
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return wrong_total ? 1 : 0;
}
