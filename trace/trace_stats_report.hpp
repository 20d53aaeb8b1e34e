// Printers of JobStats: console tables (core/table.hpp, units on their own line) and JSON
// (seconds and bytes, as the structs hold them). Unit conversion happens only here.
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "trace/trace_diagnostics.hpp"
#include "trace/trace_stats.hpp"

namespace dlcnet::trace {

struct StatsPrintOptions {
  bool per_iteration = false;  // one row per node and iteration instead of the mean
  size_t max_keys = 0;         // rows of the per-key table; 0: all keys
};

void print_stats(std::ostream& out, const JobStats& stats, const StatsPrintOptions& options);

// {"job", "summary", "by_operation", "message_sizes", "nodes": [... "iterations": [...]],
//  "keys": [...]}; the caller adds the "context" block.
nlohmann::json stats_to_json(const JobStats& stats);

// {"errors", "warnings", "notes", "counts": {problem: count}} of a load.
nlohmann::json diagnostics_to_json(const Diagnostics& diagnostics);

}  // namespace dlcnet::trace
