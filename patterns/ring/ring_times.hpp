// What one rank measured in a ring run, on its own clock, and its wire form for the gather to
// rank 0. Per size, the measured iterations (warm-ups are run and checked, not kept); per
// iteration, when the rank entered and finished it, and per step its message out (post,
// completion at the sender) and the arrival of its message in.
#pragma once

#include <cstdint>
#include <vector>

#include "core/bytes.hpp"

namespace dlcnet::ring {

struct StepTimes {
  int64_t post_ns = -1;      // this rank's send (or write) posted; -1: no message out
  int64_t complete_ns = -1;  // its completion at this rank
  int64_t arrival_ns = -1;   // the message in arrived (for --op write: its notification)
};

struct RunTimes {
  int64_t entry_ns = 0;  // inputs ready, the iteration starts on this rank
  int64_t end_ns = 0;    // its result complete and every send of it completed
  std::vector<StepTimes> steps;
};

struct SizeTimes {
  uint64_t wrong = 0;  // elements wrong over every checked iteration (warm-ups included)
  uint64_t checked = 0;
  std::vector<RunTimes> runs;  // measured iterations
};

Bytes encode(const std::vector<SizeTimes>& sizes);
// Throws ProtocolError naming the rank when the blob is malformed or its counts exceed what
// it could hold.
std::vector<SizeTimes> decode(const Bytes& b, int rank);

}  // namespace dlcnet::ring
