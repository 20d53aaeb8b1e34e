// Turns a file's IDdep entries (key-opnum-peer) into indices of records at the same node.
#include "trace/trace_draft.hpp"

namespace dlcnet::trace {

std::string op_id_text(int32_t key, int32_t opnum, uint16_t peer, uint16_t num_workers) {
  std::string s = std::to_string(key) + "-" + std::to_string(opnum) + "-";
  if (peer >= num_workers) {
    s += "s" + std::to_string(peer - num_workers);
  } else {
    s += "w" + std::to_string(peer);
  }
  return s;
}

namespace {

// The dependencies vector was sized from a sample of rows and holds the entries dropped here:
// give the slack back when it is worth a copy (4 bytes a dependency, one node at a time).
void trim(std::vector<uint32_t>& deps) {
  if (deps.capacity() > deps.size() + deps.size() / 32 + 1024) deps.shrink_to_fit();
}

}  // namespace

void resolve_dependencies(NodeDraft& draft, Diagnostics& diag) {
  Node& node = draft.node;
  auto& records = node.records;
  const auto W = static_cast<uint16_t>(draft.num_workers < 0 ? 0 : draft.num_workers);

  // The index serves the deferred dependencies, the matching of a server's messages and the
  // repeats of channels that arrived out of order; a clean worker file needs none of these.
  bool need_index = !draft.refs.empty() || node.role != Role::kWorker;
  for (uint32_t c = 0; c < draft.channels.size() && !need_index; ++c) {
    need_index = !draft.channels[c].known_sorted;
  }
  if (!need_index) {
    trim(node.deps);
    return;
  }
  // A server's channel ids are not needed once indexed (the matcher walks the workers).
  for (uint32_t r : draft.channels.build_index(records, node.role != Role::kWorker)) {
    records[r].set_flag(Record::kDuplicateFlag, true);
    const Record& rec = records[r];
    diag.add(Problem::kRepeatedOpId, node.file, rec.line,
             "OP_ID " + op_id_text(rec.key, rec.opnum, rec.peer, W) +
                 " repeats an earlier record's; dependencies on it resolve to the first one");
  }
  if (draft.refs.empty()) {  // every dependency resolved while reading
    trim(node.deps);
    return;
  }

  // Resolve the deferred entries and drop the ones that name nothing, compacting in place.
  auto& deps = node.deps;
  const auto n = static_cast<uint32_t>(records.size());
  uint32_t out = 0;
  for (uint32_t i = 0; i < n; ++i) {
    Record& rec = records[i];
    const uint32_t begin = rec.dep_begin;
    const uint32_t end = i + 1 < n ? records[i + 1].dep_begin : static_cast<uint32_t>(deps.size());
    rec.dep_begin = out;
    for (uint32_t k = begin; k < end; ++k) {
      const uint32_t entry = deps[k];
      if ((entry & kDeferredDep) == 0) {
        deps[out++] = entry;
        continue;
      }
      const RawRef& ref = draft.refs[entry & ~kDeferredDep];
      const uint32_t ch = draft.channels.find(ref.peer, ref.key);
      if (ch == kNone) {
        // The capture lists every server in a worker's push-on-pull list, with opnum 0 for
        // the servers that never held the key: expected, so only counted.
        if (ref.list_entry != 0 && rec.op == Op::kPushSendWorker) {
          diag.count_at(Problem::kStaleListEntry, node.file, rec.line);
          continue;
        }
        diag.add(Problem::kDanglingDependency, node.file, rec.line,
                 "field 'IDdep': " + op_id_text(ref.key, ref.opnum, ref.peer, W) +
                     " names a record that does not exist: this file has no record of key " +
                     std::to_string(ref.key) + " with that peer");
        continue;
      }
      const uint32_t target = draft.channels.lookup(ch, ref.opnum, records);
      if (target == kNone) {
        diag.add(Problem::kDanglingDependency, node.file, rec.line,
                 "field 'IDdep': " + op_id_text(ref.key, ref.opnum, ref.peer, W) +
                     " names a record that does not exist in this file");
        continue;
      }
      const Op want = op_dep_target(rec.op);
      if (records[target].op != want) {
        diag.add(Problem::kBadDependency, node.file, rec.line,
                 "field 'IDdep': " + op_id_text(ref.key, ref.opnum, ref.peer, W) + " is a " +
                     std::string(op_name(records[target].op)) + " (line " +
                     std::to_string(records[target].line) + "); the dependency of a " +
                     std::string(op_name(rec.op)) + " is a " + std::string(op_name(want)));
        continue;
      }
      deps[out++] = target;
    }
  }
  deps.resize(out);
  trim(deps);
  std::vector<RawRef>().swap(draft.refs);
}

}  // namespace dlcnet::trace
