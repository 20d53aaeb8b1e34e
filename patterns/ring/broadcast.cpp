// Broadcast from --root as a pipelined chain along the ring, N-1 steps: in step s the rank s
// places after the root sends the whole vector to the next one; with --segment every segment
// moves on as soon as it has arrived, so the chain is a pipeline (NCCL's ring broadcast). The
// size is the vector; every rank's output is the root's input; busbw = algbw (nccl-tests'
// factor 1). N-1 messages of the whole size per iteration. Out of place (nccl-tests' default)
// the root copies its input into its output; --in-place its input is its output, as in
// MPI_Bcast: it sends from it and copies nothing.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"
#include "patterns/ring/root_steps.hpp"

namespace dlcnet::ring {
namespace {

Plan plan(const Layout& l, int rank) {
  Plan p;
  const int n = l.ranks, k = position(l, rank);
  const Piece whole{Buf::out, 0, l.count};
  const bool root_in_place = k == 0 && l.in_place;
  if (k == 0 && !root_in_place) p.copies.push_back(Piece{Buf::in, 0, l.count});
  if (root_in_place) p.result = Buf::in;
  for (int s = 0; s < n - 1; ++s) {
    Step st;
    st.phase = "broadcast";
    if (s == k - 1) st.from = (rank - 1 + n) % n, st.recv = whole;
    if (s == k && k < n - 1) {
      st.to = (rank + 1) % n;
      st.send = root_in_place ? Piece{Buf::in, 0, l.count} : whole;
    }
    p.steps.push_back(st);
  }
  return p;
}

uint64_t check(const float* out, const Layout& l, int, uint32_t t) {
  uint64_t wrong = 0;
  for (uint64_t g = 0; g < l.count; ++g) wrong += out[g] != input_value(l.root, g, t);
  return wrong;
}

// Only the root's input travels.
uint64_t corrupt_index(const Layout& l, int rank) {
  return position(l, rank) == 0 ? middle_element(l, rank) : kNoElement;
}

}  // namespace

const CollectiveDef kBroadcast{.name = "broadcast",
                               .bus_factor = unit_factor,
                               .layout = whole_message,
                               .plan = plan,
                               .fill = fill_at_root,
                               .check = check,
                               .corrupt_index = corrupt_index,
                               .rooted = true,
                               .send_only = true,
                               .in_place = true};

}  // namespace dlcnet::ring
