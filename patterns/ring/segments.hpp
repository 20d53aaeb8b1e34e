// A step's message cut into segments, as NCCL pipelines a ring: segment j of step s+1 leaves as
// soon as segment j of step s has arrived (and been reduced), instead of after the whole
// chunk. Both ends cut a message the same way (the same chunk, the same --segment), so the
// receiver's segment j is the sender's. Every (step, segment) has one slot of times: the
// sender's segment out and the receiver's segment in.
#pragma once

#include <cstdint>
#include <vector>

#include "patterns/ring/collective.hpp"

namespace dlcnet::ring {

struct Segments {
  uint64_t elems = 0;  // elements per segment (the last may be shorter); 0: whole
  // Per step: segments of its larger message; 1 when both are empty (--op write sends an
  // empty message as its notification alone, ring_engine.hpp); 0 for a step with no peer.
  std::vector<uint32_t> count;
  std::vector<uint32_t> base;  // per step: its first slot
  uint32_t total = 0;          // slots
};

// Throws Error when a step would need 65536 segments or more.
Segments cut(const Plan& p, uint64_t segment_bytes);

// Segments of a piece of `count` elements.
uint32_t pieces(uint64_t count, uint64_t elems) noexcept;
// Segment j of `x` (j < pieces(x.count, elems)).
Piece segment(const Piece& x, uint64_t elems, uint32_t j) noexcept;

}  // namespace dlcnet::ring
