// All-reduce (sum) on the ring: reduce-scatter then all-gather, 2(N-1) steps. Every rank's
// input and output are the whole vector; busbw = algbw x 2(N-1)/N.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"
#include "patterns/ring/ring_steps.hpp"

namespace dlcnet::ring {
namespace {

double bus_factor(int n) {
  return 2.0 * (n - 1) / n;
}

Layout layout(uint64_t bytes, int n) {
  return even_chunks(bytes / sizeof(float), n);
}

Plan plan(const Layout& l, int rank) {
  Plan p;
  add_reduce_scatter(p.steps, l, rank);
  add_all_gather(p.steps, l, rank);
  return p;
}

void fill(float* in, const Layout& l, int rank, uint32_t t) {
  for (uint64_t g = 0; g < l.count; ++g) in[g] = input_value(rank, g, t);
}

uint64_t check(const float* out, const Layout& l, int, uint32_t t) {
  const auto sums = reduced_table(l.ranks);
  uint64_t wrong = 0;
  for (uint64_t g = 0; g < l.count; ++g) wrong += out[g] != reduced_value(sums, g, t);
  return wrong;
}

uint64_t corrupt_index(const Layout& l, int) {
  return l.count ? l.count / 2 : kNoElement;
}

}  // namespace

const CollectiveDef kAllreduce{Collective::allreduce, bus_factor, layout, plan, fill, check,
                               corrupt_index};

}  // namespace dlcnet::ring
