// The error of a whole group of messages (a fan-in round, a replayed iteration, a collective's
// size): its span from the first post to the last arrival, measured against predicted. For a
// fan-in round that span is the burst completion time, for a replay the iteration time, for a
// collective the time that busbw divides (so busbw's relative error is -e / (1 + e)).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "compare/error_stats.hpp"

namespace dlcnet::compare {

struct GroupError {
  int32_t group = -1;
  uint64_t messages = 0;
  double measured_s = 0, predicted_s = 0;
  double error() const noexcept {
    return measured_s > 0 ? (predicted_s - measured_s) / measured_s : 0;
  }
};

// One entry per group >= 0, in group order; messages of group -1 are left out.
std::vector<GroupError> group_errors(std::span<const Matched> matched);

}  // namespace dlcnet::compare
