// Where a rank's buffers live in its one registered region, the same on every rank (a write
// names the peer's offset): the input, two outputs and two sets of staging slots (iterations
// alternate between them, so a neighbour already in the next iteration never lands on data
// this rank still reads; one of each where the collective allows, CollectiveDef::
// one_buffer_set), and the notifications of --op write. Sized for the largest size.
#pragma once

#include <cstdint>

#include "patterns/ring/collective.hpp"

namespace dlcnet::ring {

inline constexpr uint64_t kNotifyBytes = 8;  // bytes of one --op write notification

struct RegionMap {
  uint64_t in = 0, out[2] = {0, 0}, stage[2] = {0, 0};
  uint64_t notify_send = 0, notify_recv[2] = {0, 0};
  uint64_t max_slots = 0;  // the most (step, segment) pairs of any size
  uint64_t total = 0;      // bytes

  // Byte offset of a piece in iteration parity `p`.
  uint64_t offset(const Piece& x, unsigned p) const noexcept;
};

// The map for every size of `spec` on `ranks` ranks.
RegionMap region_map(const RingSpec& spec, int ranks);

}  // namespace dlcnet::ring
