// Broadcast from --root as a pipelined chain along the ring, N-1 steps: in step s the rank s
// places after the root sends the whole vector to the next one; with --segment every segment
// moves on as soon as it has arrived, so the chain is a pipeline (NCCL's ring broadcast). The
// size is the vector; every rank's output is the root's input; busbw = algbw (nccl-tests'
// factor 1). N-1 messages of the whole size per iteration.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"
#include "patterns/ring/root_steps.hpp"

namespace dlcnet::ring {
namespace {

Plan plan(const Layout& l, int rank) {
  Plan p;
  const int n = l.ranks, k = position(l, rank);
  const Piece whole{Buf::out, 0, l.count};
  if (k == 0) p.copies.push_back(Piece{Buf::in, 0, l.count});
  for (int s = 0; s < n - 1; ++s) {
    Step st;
    st.phase = "broadcast";
    if (s == k - 1) st.from = (rank - 1 + n) % n, st.recv = whole;
    if (s == k && k < n - 1) st.to = (rank + 1) % n, st.send = whole;
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
                               .send_only = true};

}  // namespace dlcnet::ring
