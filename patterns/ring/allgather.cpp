// All-gather on the ring, N-1 steps: rank r's input is its chunk of the vector, every rank's
// output the whole vector. The size is the whole vector, as nccl-tests counts it; busbw =
// algbw x (N-1)/N.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_steps.hpp"

namespace dlcnet::ring {
namespace {

Plan plan(const Layout& l, int rank) {
  Plan p;
  const auto r = static_cast<size_t>(rank);
  p.copies.push_back(Piece{Buf::in, l.chunk_off[r], l.chunk_count[r]});
  add_all_gather(p.steps, l, rank);
  return p;
}

uint64_t check(const float* out, const Layout& l, int, uint32_t t) {
  return wrong_gathered(out, l, t);
}

}  // namespace

const CollectiveDef kAllgather{"allgather",    one_pass_factor, whole_vector,   plan,
                               fill_own_chunk, check,           own_chunk_start};

}  // namespace dlcnet::ring
