// The steps of the rooted collectives' direct sends between the root and every other rank:
// N-1 steps, one peer of the root per step. In step s the root exchanges with the rank s+1
// places after it along the ring (its position s+1); every other rank sends or receives in its
// one step and does nothing in the others. Nothing orders those messages: the root's receives
// are posted an iteration ahead (ring_engine.hpp) and a rank with nothing to receive before
// its step sends at once, so all N-1 are in flight together.
//   gather, step s: the rank at position s+1 sends its chunk (from buffer `from`) into the
//     root's output at the same offsets;
//   scatter, step s: the root sends chunk s+1 places after its own, from its input, into the
//     output of the rank that owns it.
#pragma once

#include <vector>

#include "patterns/ring/collective.hpp"

namespace dlcnet::ring {

// Places after the root along the ring (the root: 0), and the rank at place k.
int position(const Layout& l, int rank) noexcept;
int at_position(const Layout& l, int k) noexcept;

void add_gather_to_root(std::vector<Step>& steps, const Layout& l, int rank, Buf from);
void add_scatter_from_root(std::vector<Step>& steps, const Layout& l, int rank);

}  // namespace dlcnet::ring
