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

Plan plan(const Layout& l, int rank) {
  Plan p;
  add_reduce_scatter(p.steps, l, rank);
  add_all_gather(p.steps, l, rank);
  return p;
}

uint64_t check(const float* out, const Layout& l, int, uint32_t t) {
  const auto sums = reduced_table(l.ranks);
  uint64_t wrong = 0;
  for (uint64_t g = 0; g < l.count; ++g) wrong += out[g] != reduced_value(sums, g, t);
  return wrong;
}

}  // namespace

const CollectiveDef kAllreduce{
    Collective::allreduce, bus_factor, whole_vector, plan, fill_whole, check, middle_element};

}  // namespace dlcnet::ring
