// Reduce-scatter (sum) on the ring, N-1 steps: every rank's input is the whole vector, its
// output its own chunk of the sum (chunks differ by at most one element when N does not
// divide the count). The size is the whole vector, as nccl-tests counts it; busbw = algbw x
// (N-1)/N.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"
#include "patterns/ring/ring_steps.hpp"

namespace dlcnet::ring {
namespace {

Plan plan(const Layout& l, int rank) {
  Plan p;
  add_reduce_scatter(p.steps, l, rank);
  return p;
}

uint64_t check(const float* out, const Layout& l, int rank, uint32_t t) {
  const auto sums = reduced_table(l.ranks);
  const auto r = static_cast<size_t>(rank);
  uint64_t wrong = 0;
  for (uint64_t g = l.chunk_off[r]; g < l.chunk_off[r] + l.chunk_count[r]; ++g) {
    wrong += out[g] != reduced_value(sums, g, t);
  }
  return wrong;
}

}  // namespace

const CollectiveDef kReducescatter{"reducescatter", one_pass_factor, whole_vector,  plan,
                                   fill_whole,      check,           middle_element};

}  // namespace dlcnet::ring
