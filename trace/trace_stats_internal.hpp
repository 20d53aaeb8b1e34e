// Internal to the statistics: the per-node overheads (trace_stats_nodes.cpp).
#pragma once

#include "trace/trace_stats.hpp"

namespace dlcnet::trace {

// Fills out.worker_iterations and the worker summaries.
void worker_overheads(const Node& node, NodeStats& out);
// Fills out.server_iterations and the server summaries.
void server_overheads(const Node& node, NodeStats& out);

}  // namespace dlcnet::trace
