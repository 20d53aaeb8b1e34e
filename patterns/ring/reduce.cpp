// Reduce (sum) to --root as a pipelined chain along the ring, N-1 steps: in step s the rank
// s+1 places after the root sends its partial sum (its input at step 0, else the sum it made
// in step s-1) to the next rank, which adds its input to it; the last step reaches the root.
// With --segment every segment moves on as soon as it has arrived and been summed, so the
// chain is a pipeline (NCCL's ring reduce, the broadcast's chain run backwards): every link
// carries the size once, so a port-limited fabric allows busbw up to its rate (a reduce-
// scatter then a gather into the root would carry 2(N-1)/N of the size into the root). Every
// rank's input is the whole vector; the root's output is its sum (the others' outputs are
// partial sums, not checked, as nccl-tests checks the root's only). A rank receives into its
// output and adds its input there (out += in, as Open MPI's reduce sums into its receive
// buffer): a staging buffer summed into the output cost a pass over memory more, the output's
// lines read before being written. N-1 messages of the whole size per iteration; busbw =
// algbw (nccl-tests' factor 1).
// --op send only: the chain's head only sends, so nothing holds it back an iteration.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"
#include "patterns/ring/root_steps.hpp"

namespace dlcnet::ring {
namespace {

Plan plan(const Layout& l, int rank) {
  Plan p;
  const int n = l.ranks, k = position(l, rank);
  for (int s = 0; s + 1 < n; ++s) {
    Step st;
    st.phase = "reduce";
    if (k == s + 1) {
      st.to = (rank + 1) % n;
      st.send = Piece{s == 0 ? Buf::in : Buf::out, 0, l.count};
    }
    if (k == (s + 2) % n) {  // the next one, the root last
      st.from = (rank - 1 + n) % n;
      st.recv = Piece{Buf::out, 0, l.count};  // summed in place: out += in
      st.reduce = true;
    }
    p.steps.push_back(st);
  }
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
                            .layout = whole_message,
                            .plan = plan,
                            .fill = fill_whole,
                            .check = check,
                            .corrupt_index = middle_element,
                            .rooted = true,
                            .send_only = true};

}  // namespace dlcnet::ring
