/* ompi_coll_probe.c: which all-reduce algorithm Open MPI 4.1 really runs (bench/ring_compare.sh).
 *
 * An LD_PRELOAD library. Open MPI's coll "tuned" component (mca_coll_tuned.so) calls the
 * algorithms of coll "base" (ompi_coll_base_allreduce_intra_*, in libmpi) through the dynamic
 * linker, so a library loaded first can stand in front of them: each wrapper below counts its
 * calls and the elements asked for (in all, and in its largest call), then calls the real function (dlsym RTLD_NEXT). At exit every
 * process prints one line to stderr:
 *
 *   ompi_coll_probe: rank R: ring C/E/L recursivedoubling C/E/L ...
 *
 * (calls / elements over all calls / elements of the largest call)
 *
 * Debian's Open MPI is a release build, whose coll_tuned_verbose does not say which algorithm
 * it picked (those messages are compiled out); this says it from the calls themselves. Only
 * used in a verification run, never in a timed one. Signatures as in Open MPI 4.1's
 * ompi/mca/coll/base/coll_base_functions.h (ALLREDUCE_ARGS); the opaque types as void *.
 *
 * Build: cc -O2 -Wall -Wextra -Werror -shared -fPIC -o ompi_coll_probe.so ompi_coll_probe.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*allreduce_fn)(const void *, void *, int, void *, void *, void *, void *);
typedef int (*allreduce_seg_fn)(const void *, void *, int, void *, void *, void *, void *, uint32_t);

enum { RING, RING_SEGMENTED, RECURSIVE_DOUBLING, REDSCAT_ALLGATHER, NONOVERLAPPING, BASIC_LINEAR, NALGS };
static const char *const names[NALGS] = {"ring", "ring_segmented", "recursivedoubling",
                                         "redscat_allgather", "nonoverlapping", "basic_linear"};
static const char *const symbols[NALGS] = {
    "ompi_coll_base_allreduce_intra_ring", "ompi_coll_base_allreduce_intra_ring_segmented",
    "ompi_coll_base_allreduce_intra_recursivedoubling", "ompi_coll_base_allreduce_intra_redscat_allgather",
    "ompi_coll_base_allreduce_intra_nonoverlapping", "ompi_coll_base_allreduce_intra_basic_linear"};
static unsigned long long calls[NALGS], elements[NALGS], largest[NALGS];

static void *real(int alg) {
  void *f = dlsym(RTLD_NEXT, symbols[alg]);
  if (!f) {
    fprintf(stderr, "ompi_coll_probe: %s not found: %s\n", symbols[alg], dlerror());
    abort();
  }
  return f;
}

#define WRAP(alg, fname)                                                                        \
  int fname(const void *s, void *r, int count, void *dtype, void *op, void *comm, void *module) { \
    calls[alg]++;                                                                               \
    elements[alg] += (unsigned long long)(count > 0 ? count : 0);                               \
    if ((unsigned long long)(count > 0 ? count : 0) > largest[alg]) largest[alg] = (unsigned)count; \
    return ((allreduce_fn)real(alg))(s, r, count, dtype, op, comm, module);                     \
  }
WRAP(RING, ompi_coll_base_allreduce_intra_ring)
WRAP(RECURSIVE_DOUBLING, ompi_coll_base_allreduce_intra_recursivedoubling)
WRAP(REDSCAT_ALLGATHER, ompi_coll_base_allreduce_intra_redscat_allgather)
WRAP(NONOVERLAPPING, ompi_coll_base_allreduce_intra_nonoverlapping)
WRAP(BASIC_LINEAR, ompi_coll_base_allreduce_intra_basic_linear)

int ompi_coll_base_allreduce_intra_ring_segmented(const void *s, void *r, int count, void *dtype, void *op,
                                                  void *comm, void *module, uint32_t segsize) {
  calls[RING_SEGMENTED]++;
  elements[RING_SEGMENTED] += (unsigned long long)(count > 0 ? count : 0);
  if ((unsigned long long)(count > 0 ? count : 0) > largest[RING_SEGMENTED]) largest[RING_SEGMENTED] = (unsigned)count;
  return ((allreduce_seg_fn)real(RING_SEGMENTED))(s, r, count, dtype, op, comm, module, segsize);
}

__attribute__((destructor)) static void report(void) {
  const char *rank = getenv("OMPI_COMM_WORLD_RANK");
  char line[512];
  int n = snprintf(line, sizeof line, "ompi_coll_probe: rank %s:", rank ? rank : "?");
  for (int a = 0; a < NALGS && n > 0 && (size_t)n < sizeof line; a++)
    n += snprintf(line + n, sizeof line - (size_t)n, " %s %llu/%llu/%llu", names[a], calls[a], elements[a],
                  largest[a]);
  fprintf(stderr, "%s (calls/elements/largest call's elements)\n", line);
}
