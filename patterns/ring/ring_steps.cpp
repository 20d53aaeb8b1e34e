#include "patterns/ring/ring_steps.hpp"

#include <algorithm>

namespace dlcnet::ring {
namespace {

int wrap(int x, int n) noexcept {
  return ((x % n) + n) % n;
}

}  // namespace

void add_reduce_scatter(std::vector<Step>& steps, const Layout& l, int rank) {
  const int n = l.ranks;
  for (int s = 0; s + 1 < n; ++s) {
    Step st;
    st.phase = "reduce-scatter";
    st.to = wrap(rank + 1, n);
    st.from = wrap(rank - 1, n);
    st.send = chunk_piece(l, s == 0 ? Buf::in : Buf::out, wrap(rank - s - 1, n));
    const auto c = static_cast<size_t>(wrap(rank - s - 2, n));
    st.recv = Piece{Buf::stage, static_cast<uint64_t>(s) * l.max_chunk, l.chunk_count[c]};
    st.reduce = true;
    st.reduce_off = l.chunk_off[c];
    steps.push_back(st);
  }
}

void add_all_gather(std::vector<Step>& steps, const Layout& l, int rank) {
  const int n = l.ranks;
  for (int s = 0; s + 1 < n; ++s) {
    Step st;
    st.phase = "all-gather";
    st.to = wrap(rank + 1, n);
    st.from = wrap(rank - 1, n);
    st.send = chunk_piece(l, Buf::out, wrap(rank - s, n));
    st.recv = chunk_piece(l, Buf::out, wrap(rank - s - 1, n));
    steps.push_back(st);
  }
}

int owner(const Layout& l, uint64_t g) noexcept {
  // chunk_off is ascending; the owner is the last chunk starting at or before g with elements.
  const auto it = std::upper_bound(l.chunk_off.begin(), l.chunk_off.end(), g);
  int c = static_cast<int>(it - l.chunk_off.begin()) - 1;
  while (c > 0 && l.chunk_count[static_cast<size_t>(c)] == 0) --c;
  return c;
}

}  // namespace dlcnet::ring
