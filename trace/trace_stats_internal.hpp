// Internal to the statistics: the per-node overheads (trace_stats_nodes.cpp).
#pragma once

#include "trace/trace_stats.hpp"

namespace dlcnet::trace {

// to - from in seconds: exact in int64 (stamps since the epoch need all 63 bits), in double
// only for stamps so far apart that the difference overflows.
inline double seconds_between(int64_t from, int64_t to) {
  int64_t d = 0;
  if (!__builtin_sub_overflow(to, from, &d)) return static_cast<double>(d) * 1e-9;
  return (static_cast<double>(to) - static_cast<double>(from)) * 1e-9;
}

// Fills out.worker_iterations and the worker summaries.
void worker_overheads(const Node& node, NodeStats& out);
// Fills out.server_iterations and the server summaries.
void server_overheads(const Node& node, NodeStats& out);

}  // namespace dlcnet::trace
