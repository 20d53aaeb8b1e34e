// Gather to --root as direct sends, N-1 steps (root_steps.hpp): every other rank sends its
// chunk straight into the root's output; the root posts every receive ahead, so the N-1
// messages of about 1/N of the size are in flight together. Rank r's input is its chunk of the
// vector (chunks differ by at most one element); the root's output is the whole vector. The
// size is the whole vector, as nccl-tests counts it (nccl-tests rounds it down to a multiple
// of N; here the chunks are uneven, as in the all-gather); busbw = algbw x (N-1)/N.
// --op send only: the other ranks only send, so nothing holds them back an iteration.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/root_steps.hpp"

namespace dlcnet::ring {
namespace {

Plan plan(const Layout& l, int rank) {
  Plan p;
  if (rank == l.root) p.copies.push_back(chunk_piece(l, Buf::in, rank));
  add_gather_to_root(p.steps, l, rank, Buf::in);
  return p;
}

uint64_t check(const float* out, const Layout& l, int rank, uint32_t t) {
  return rank == l.root ? wrong_gathered(out, l, t) : 0;
}

}  // namespace

const CollectiveDef kGather{.name = "gather",
                            .bus_factor = one_pass_factor,
                            .layout = whole_vector,
                            .plan = plan,
                            .fill = fill_own_chunk,
                            .check = check,
                            .corrupt_index = own_chunk_start,
                            .rooted = true,
                            .send_only = true,
                            .all_peers = true};

}  // namespace dlcnet::ring
