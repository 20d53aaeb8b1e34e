// Turns a file's IDdep entries (key-opnum-peer) into indices of records at the same node.
#include "replay/trace_draft.hpp"

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

void resolve_dependencies(NodeDraft& draft, Diagnostics& diag) {
  Node& node = draft.node;
  auto& records = node.records;
  const auto W = static_cast<uint16_t>(draft.num_workers < 0 ? 0 : draft.num_workers);

  for (uint32_t r : draft.channels.build_index(records)) {
    records[r].set_flag(Record::kDuplicateFlag, true);
    const Record& rec = records[r];
    diag.add(Problem::kRepeatedOpId, node.file, rec.line,
             "OP_ID " + op_id_text(rec.key, rec.opnum, rec.peer, W) +
                 " repeats an earlier record's; dependencies on it resolve to the first one");
  }
  if (draft.resolved) {
    for (auto& rec : records) rec.message = kNone;
    return;
  }

  std::vector<uint32_t> deps;
  deps.reserve(draft.refs.size());
  const auto n = static_cast<uint32_t>(records.size());
  for (uint32_t i = 0; i < n; ++i) {
    Record& rec = records[i];
    const uint32_t begin = rec.dep_begin;
    const uint32_t end =
        i + 1 < n ? records[i + 1].dep_begin : static_cast<uint32_t>(draft.refs.size());
    rec.dep_begin = static_cast<uint32_t>(deps.size());
    rec.message = kNone;
    for (uint32_t k = begin; k < end; ++k) {
      const RawRef& ref = draft.refs[k];
      const uint32_t ch = draft.channels.find(ref.peer, ref.key);
      if (ch == kNone) {
        // The capture lists every server in a worker's push-on-pull list, with opnum 0 for
        // the servers that never held the key: expected, so only counted.
        if (ref.list_entry != 0 && rec.op == Op::kPushSendWorker) {
          diag.count(Problem::kStaleListEntry);
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
      deps.push_back(target);
    }
  }
  // Stale list entries leave slack; give it back when it is worth a copy.
  if (deps.capacity() > deps.size() + deps.size() / 8 + 1024) deps.shrink_to_fit();
  node.deps = std::move(deps);
  std::vector<RawRef>().swap(draft.refs);
  draft.resolved = true;
}

}  // namespace dlcnet::trace
