// Reduce (sum) to --root: the ring's reduce-scatter (N-1 steps), then a gather of the summed
// chunks into the root (N-1 steps, root_steps.hpp): rank r sends its chunk straight into the
// root's output as soon as each segment of it is summed. Every rank's input is the whole
// vector; the root's output is the vector's sum (the others' outputs are scratch and not
// checked, as nccl-tests checks the root's only). Messages per iteration: N(N-1) of about
// 1/N of the size; through the root 2(N-1)/N of the size in, (N-1)/N out. busbw = algbw
// (nccl-tests' factor 1).
//
// --op write is safe with two buffer sets while every chunk has an element (N elements or
// more): a rank sends its gather message of iteration t only once its chunk holds every
// rank's input of t, so the root has started t and checked t-1; the reduce-scatter is the
// reducescatter's. Below N elements a rank with an empty chunk receives nothing and only
// sends, and its writes can overtake (as in reducescatter and allgather, docs/ring.md).
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"
#include "patterns/ring/ring_steps.hpp"
#include "patterns/ring/root_steps.hpp"

namespace dlcnet::ring {
namespace {

Plan plan(const Layout& l, int rank) {
  Plan p;
  add_reduce_scatter(p.steps, l, rank);
  add_gather_to_root(p.steps, l, rank, Buf::out);
  return p;
}

uint64_t check(const float* out, const Layout& l, int rank, uint32_t t) {
  if (rank != l.root) return 0;
  const auto sums = reduced_table(l.ranks);
  uint64_t wrong = 0;
  for (uint64_t g = 0; g < l.count; ++g) wrong += out[g] != reduced_value(sums, g, t);
  return wrong;
}

}  // namespace

const CollectiveDef kReduce{.name = "reduce",
                            .bus_factor = unit_factor,
                            .layout = whole_vector,
                            .plan = plan,
                            .fill = fill_whole,
                            .check = check,
                            .corrupt_index = middle_element,
                            .rooted = true,
                            .all_peers = true};

}  // namespace dlcnet::ring
