// The job-wide dependency graph must be acyclic, or a replay would wait forever.
#pragma once

#include "trace/trace_diagnostics.hpp"
#include "trace/trace_model.hpp"

namespace dlcnet::trace {

// Edges: every record's dependencies at its node, and every message from its send to its
// receive. Reports each cycle found as one error naming the file and line of its records.
// Returns the number of records left waiting (in a cycle or behind one).
uint64_t check_cycles(const Job& job, Diagnostics& diag);

}  // namespace dlcnet::trace
