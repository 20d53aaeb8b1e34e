// All-gather on the ring, N-1 steps: rank r's input is its chunk of the vector, every rank's
// output the whole vector. The size is the whole vector, as nccl-tests counts it; busbw =
// algbw x (N-1)/N.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"
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

void fill(float* in, const Layout& l, int rank, uint32_t t) {
  const auto r = static_cast<size_t>(rank);
  for (uint64_t g = l.chunk_off[r]; g < l.chunk_off[r] + l.chunk_count[r]; ++g) {
    in[g] = input_value(rank, g, t);
  }
}

uint64_t check(const float* out, const Layout& l, int, uint32_t t) {
  uint64_t wrong = 0;
  for (int c = 0; c < l.ranks; ++c) {
    const auto i = static_cast<size_t>(c);
    for (uint64_t g = l.chunk_off[i]; g < l.chunk_off[i] + l.chunk_count[i]; ++g) {
      wrong += out[g] != input_value(c, g, t);
    }
  }
  return wrong;
}

uint64_t corrupt_index(const Layout& l, int rank) {
  const auto r = static_cast<size_t>(rank);
  return l.chunk_count[r] ? l.chunk_off[r] : kNoElement;
}

}  // namespace

const CollectiveDef kAllgather{"allgather", one_pass_factor, whole_vector, plan,
                               fill,        check,           corrupt_index};

}  // namespace dlcnet::ring
