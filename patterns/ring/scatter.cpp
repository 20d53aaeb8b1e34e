// Scatter from --root as direct sends, N-1 steps (root_steps.hpp): the root sends every other
// rank its chunk, N-1 messages of about 1/N of the size in flight together. The root's input
// is the whole vector; rank r's output is chunk r of it (chunks differ by at most one
// element). The size is the whole vector, as nccl-tests counts it (nccl-tests rounds it down
// to a multiple of N; here the chunks are uneven); busbw = algbw x (N-1)/N.
// --op send only: the root only sends, so nothing holds it back an iteration.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"
#include "patterns/ring/root_steps.hpp"

namespace dlcnet::ring {
namespace {

Plan plan(const Layout& l, int rank) {
  Plan p;
  if (rank == l.root) p.copies.push_back(chunk_piece(l, Buf::in, rank));
  add_scatter_from_root(p.steps, l, rank);
  return p;
}

uint64_t check(const float* out, const Layout& l, int rank, uint32_t t) {
  const Piece mine = chunk_piece(l, Buf::out, rank);
  uint64_t wrong = 0;
  for (uint64_t g = mine.off; g < mine.off + mine.count; ++g) {
    wrong += out[g] != input_value(l.root, g, t);
  }
  return wrong;
}

// The root's element that goes to the rank after it.
uint64_t corrupt_index(const Layout& l, int rank) {
  return rank == l.root ? own_chunk_start(l, at_position(l, 1)) : kNoElement;
}

}  // namespace

const CollectiveDef kScatter{.name = "scatter",
                             .bus_factor = one_pass_factor,
                             .layout = whole_vector,
                             .plan = plan,
                             .fill = fill_at_root,
                             .check = check,
                             .corrupt_index = corrupt_index,
                             .rooted = true,
                             .send_only = true,
                             .all_peers = true};

}  // namespace dlcnet::ring
