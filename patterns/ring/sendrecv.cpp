// Sendrecv as nccl-tests runs it: one step, rank r sends the whole vector to r+1 and receives
// r-1's into its output. One message of the size out and one in per rank; busbw = algbw
// (nccl-tests' factor 1).
// --op send only: no rank's send waits on its receiver, so at 3 ranks and more a rank can run
// two iterations ahead of its successor.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"

namespace dlcnet::ring {
namespace {

int predecessor(const Layout& l, int rank) {
  return (rank - 1 + l.ranks) % l.ranks;
}

Plan plan(const Layout& l, int rank) {
  Plan p;
  Step st;
  st.phase = "sendrecv";
  st.to = (rank + 1) % l.ranks;
  st.from = predecessor(l, rank);
  st.send = Piece{Buf::in, 0, l.count};
  st.recv = Piece{Buf::out, 0, l.count};
  p.steps.push_back(st);
  return p;
}

uint64_t check(const float* out, const Layout& l, int rank, uint32_t t) {
  const int from = predecessor(l, rank);
  uint64_t wrong = 0;
  for (uint64_t g = 0; g < l.count; ++g) wrong += out[g] != input_value(from, g, t);
  return wrong;
}

}  // namespace

const CollectiveDef kSendrecv{.name = "sendrecv",
                              .bus_factor = unit_factor,
                              .layout = whole_message,
                              .plan = plan,
                              .fill = fill_whole,
                              .check = check,
                              .corrupt_index = middle_element,
                              .send_only = true};

}  // namespace dlcnet::ring
