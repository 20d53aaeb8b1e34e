// A node as one file yields it, before the job-wide steps (dependency resolution, matching,
// cycle check). Internal to the loader and the format readers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace_channels.hpp"
#include "trace/trace_diagnostics.hpp"
#include "trace/trace_model.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace {

// One IDdep entry as written: key-opnum-peer (the key is the record's own for the forms that
// omit it). 12 bytes, freed once the file's dependencies are resolved.
struct RawRef {
  int32_t key = 0;
  int32_t opnum = 0;
  uint16_t peer = 0;       // node rank
  uint8_t list_entry = 0;  // 1 when part of a one-to-many list
  uint8_t unused = 0;
};

// An entry of Node::deps that is not resolved yet: the low bits index NodeDraft::refs.
inline constexpr uint32_t kDeferredDep = 0x8000'0000u;

struct NodeDraft {
  Node node;                 // rank/role set by the first row; records as read
  bool identified = false;   // rank and role known
  int32_t num_workers = -1;  // from the header
  int32_t num_servers = -1;
  // Most dependencies resolve while the file is read (the record they name was just seen);
  // the others sit in node.deps as kDeferredDep | index into `refs` until
  // resolve_dependencies(). Until matching, Record::message holds the record's channel id
  // (kNone for set-up records).
  std::vector<RawRef> refs;
  ChannelTable channels;
};

// Reads one SketchDLC data file (trace_record.txt) into `draft`. Problems go to `diag`; returns
// false when the file is rejected outright (not a DLC trace, unreadable, no usable header).
bool read_sketch_data_file(const std::string& path, NodeDraft& draft, Diagnostics& diag,
                           LineReader* in = nullptr);

// Reads a scheduler-message file (trace_sch_record.txt) into node.control. The node's role
// must be set (its rows must be that role's), and `scheduler_rank` is W + S.
bool read_sketch_sch_file(const std::string& path, Node& node, uint16_t scheduler_rank,
                          Diagnostics& diag);

// Builds the channel index and resolves the deferred entries of Node::deps. Reports repeated
// OP_IDs, dependencies naming records that do not exist, and dependencies on the wrong
// operation.
void resolve_dependencies(NodeDraft& draft, Diagnostics& diag);

// "3-4-s0": the OP_ID of a data record as its own file writes it.
std::string op_id_text(int32_t key, int32_t opnum, uint16_t peer, uint16_t num_workers);

}  // namespace dlcnet::trace
