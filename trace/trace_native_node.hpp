// Internal to the native reader: a node's rows as read, before ids and opnums are resolved.
#pragma once

#include <cstdint>
#include <vector>

#include "trace/trace_diagnostics.hpp"
#include "trace/trace_draft.hpp"

namespace dlcnet::trace {

struct NativeNode {
  NodeDraft draft;
  std::vector<int64_t> ids;      // each record's id column
  std::vector<int64_t> dep_ids;  // Record::dep_begin indexes this until resolved
  std::vector<uint8_t> has_opnum;
  std::vector<int8_t> dep_type;  // -1: not given
};

// Resolves ids into Node::deps, derives opnums and dep_Types where absent, and sets up the
// channels (Record::message = channel id, as resolve_dependencies() and the matcher expect).
void finish_native_node(NativeNode& n, Diagnostics& diag);

}  // namespace dlcnet::trace
