// How repeatable the measurement itself is, message by message: the floor under any model's
// per-message error on that network. Groups of the same shape (the same messages between the
// same pairs: a fan-in's rounds, a collective's iterations of one size, a replay's
// iterations) are held against each other: a message is its group's n-th message from src to
// dst (by start), and its measured fct in one group against the same message's in the next
// group of that shape gives |b - a| / a. A network whose per-message times differ this much
// from one iteration to the next cannot be predicted closer than about that by any model
// that sees only the workload (docs/compare.md, "repeatability").
#pragma once

#include <cstdint>
#include <span>

#include "compare/error_stats.hpp"

namespace dlcnet::compare {

struct Repeatability {
  uint64_t messages = 0;      // messages held against their repeat
  uint64_t group_pairs = 0;   // pairs of same-shaped groups
  LatencySummary abs_change;  // |b - a| / a over those messages
};

// Messages of group -1 are left out; groups whose shape no other group has add nothing.
Repeatability measured_repeatability(std::span<const Matched> matched);

}  // namespace dlcnet::compare
