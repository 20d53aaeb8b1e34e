// Per collective of a Chakra job's replay: its messages, and its span, from the first post of
// one of its messages to the last arrival, on rank 0's clock; beside the trace's duration of
// the collective (the longest duration_micros of its nodes over the ranks).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "flows/flow.hpp"
#include "trace/chakra/chakra_model.hpp"

namespace dlcnet::replay {

struct CollectiveSpan {
  uint32_t number = 0;  // 1: every rank's first COMM_COLL_NODE (file order)
  trace::chakra::Collective type = trace::chakra::Collective::kAllReduce;
  uint64_t comm_size = 0;
  uint64_t trace_duration_us = 0;  // the longest over the ranks (0: none recorded)
  uint64_t messages = 0, bytes = 0;
  double first_post_ns = 0, last_arrival_ns = 0;  // on rank 0's clock; 0 without messages
  double span_s() const noexcept { return (last_arrival_ns - first_post_ns) * 1e-9; }
};

// The collectives of `job` (the k-th COMM_COLL_NODE of every rank is one collective), with
// the flows (the replay's messages, named by their sending node's id) that belong to each.
std::vector<CollectiveSpan> collective_spans(const trace::chakra::Job& job,
                                             std::span<const Flow> flows);

}  // namespace dlcnet::replay
