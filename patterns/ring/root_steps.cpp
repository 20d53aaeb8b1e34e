#include "patterns/ring/root_steps.hpp"

namespace dlcnet::ring {

int position(const Layout& l, int rank) noexcept {
  return (rank - l.root + l.ranks) % l.ranks;
}

int at_position(const Layout& l, int k) noexcept {
  return (l.root + k) % l.ranks;
}

void add_gather_to_root(std::vector<Step>& steps, const Layout& l, int rank, Buf from) {
  const int k = position(l, rank);
  for (int s = 0; s + 1 < l.ranks; ++s) {
    Step st;
    st.phase = "gather";
    const int peer = at_position(l, s + 1);
    if (k == 0) {
      st.from = peer;
      st.recv = chunk_piece(l, Buf::out, peer);
    } else if (k == s + 1) {
      st.to = l.root;
      st.send = chunk_piece(l, from, rank);
    }
    steps.push_back(st);
  }
}

void add_scatter_from_root(std::vector<Step>& steps, const Layout& l, int rank) {
  const int k = position(l, rank);
  for (int s = 0; s + 1 < l.ranks; ++s) {
    Step st;
    st.phase = "scatter";
    const int peer = at_position(l, s + 1);
    if (k == 0) {
      st.to = peer;
      st.send = chunk_piece(l, Buf::in, peer);
    } else if (k == s + 1) {
      st.from = l.root;
      st.recv = chunk_piece(l, Buf::out, rank);
    }
    steps.push_back(st);
  }
}

}  // namespace dlcnet::ring
