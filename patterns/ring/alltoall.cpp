// All-to-all as pairwise exchanges, N-1 steps: in step s rank r sends its block for r+s and
// receives the block of r-s. Every rank's input and output are N blocks of count/N elements
// (the count rounded down to a multiple of N, as nccl-tests does); busbw = algbw x (N-1)/N.
#include "patterns/ring/collectives.hpp"
#include "patterns/ring/ring_data.hpp"

namespace dlcnet::ring {
namespace {

Layout layout(uint64_t bytes, int n) {
  const uint64_t per = bytes / sizeof(float) / static_cast<uint64_t>(n);
  return even_chunks(per * static_cast<uint64_t>(n), n);
}

Plan plan(const Layout& l, int rank) {
  const int n = l.ranks;
  const uint64_t b = l.max_chunk;
  Plan p;
  p.copies.push_back(Piece{Buf::in, static_cast<uint64_t>(rank) * b, b});
  for (int s = 1; s < n; ++s) {
    Step st;
    st.phase = "exchange";
    st.to = (rank + s) % n;
    st.from = (rank - s + n) % n;
    st.send = Piece{Buf::in, static_cast<uint64_t>(st.to) * b, b};
    st.recv = Piece{Buf::out, static_cast<uint64_t>(st.from) * b, b};
    p.steps.push_back(st);
  }
  return p;
}

uint64_t check(const float* out, const Layout& l, int rank, uint32_t t) {
  const uint64_t b = l.max_chunk;
  uint64_t wrong = 0;
  for (int src = 0; src < l.ranks; ++src) {
    const float* block = out + static_cast<uint64_t>(src) * b;
    for (uint64_t k = 0; k < b; ++k) {
      wrong += block[k] != input_value(src, static_cast<uint64_t>(rank) * b + k, t);
    }
  }
  return wrong;
}

uint64_t corrupt_index(const Layout& l, int rank) {
  const uint64_t b = l.max_chunk;
  return b ? static_cast<uint64_t>((rank + 1) % l.ranks) * b : kNoElement;
}

}  // namespace

const CollectiveDef kAlltoall{.name = "alltoall",
                              .bus_factor = one_pass_factor,
                              .layout = layout,
                              .plan = plan,
                              .fill = fill_whole,
                              .check = check,
                              .corrupt_index = corrupt_index,
                              .all_peers = true};

}  // namespace dlcnet::ring
