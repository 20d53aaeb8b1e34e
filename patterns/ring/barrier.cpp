// Barrier as a dissemination barrier (Hensgen, Finkel and Manber), ceil(log2 N) rounds: in
// round k rank r sends to r+2^k and waits for r-2^k, and sends round k+1's message only once
// round k's has arrived. After the last round every rank has heard, directly or through
// others, from every rank that entered the barrier: no rank leaves before all have entered.
// No payload: the size is 0 B (no -b/-e/-s; algbw and busbw are 0) and the time is the
// barrier's latency, back to back as nccl-tests times its collectives. Each message is one
// float32 token, the sender's iteration's input element 0, so a stale or lost round is a wrong
// element; ceil(log2 N) messages of 4 B out and in per rank.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"

namespace dlcnet::ring {
namespace {

int rounds(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

int from_of(int rank, int k, int n) {
  return ((rank - (1 << k)) % n + n) % n;
}

double bus_factor(int) {
  return 0.0;
}

// No elements to move; each message is one token (max_chunk sizes the messages).
Layout layout(uint64_t, int ranks) {
  Layout l = even_chunks(0, ranks);
  l.max_chunk = 1;
  return l;
}

Plan plan(const Layout& l, int rank) {
  Plan p;
  const int n = l.ranks;
  for (int k = 0; k < rounds(n); ++k) {
    Step st;
    st.phase = "barrier";
    st.to = (rank + (1 << k)) % n;
    st.from = from_of(rank, k, n);
    st.send = Piece{Buf::in, 0, 1};
    st.recv = Piece{Buf::out, static_cast<uint64_t>(k), 1};
    p.steps.push_back(st);
  }
  return p;
}

void fill(float* in, const Layout&, int rank, uint32_t t) {
  in[0] = input_value(rank, 0, t);
}

uint64_t check(const float* out, const Layout& l, int rank, uint32_t t) {
  uint64_t wrong = 0;
  for (int k = 0; k < rounds(l.ranks); ++k) {
    wrong += out[k] != input_value(from_of(rank, k, l.ranks), 0, t);
  }
  return wrong;
}

uint64_t corrupt_index(const Layout&, int) {
  return 0;
}

}  // namespace

// --op write is safe with two buffer sets: a rank in iteration t+2 has left the barrier of
// t+1, which every rank had entered, so every rank has checked t.
const CollectiveDef kBarrier{.name = "barrier",
                             .bus_factor = bus_factor,
                             .layout = layout,
                             .plan = plan,
                             .fill = fill,
                             .check = check,
                             .corrupt_index = corrupt_index,
                             .all_peers = true,
                             .sizeless = true};

}  // namespace dlcnet::ring
