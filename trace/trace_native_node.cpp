#include "trace/trace_native_node.hpp"

#include <algorithm>
#include <utility>

namespace dlcnet::trace {
namespace {

bool is_init_push(const Record& r) {
  return r.iteration == 0 && (r.phase() == Phase::kPushSend || r.phase() == Phase::kPushRecv);
}

// Opnums: as given, else numbered like the capture (worker 0 from 0 on the channels that hold
// the initialisation push, everything else from -2 on a server's channels with worker 0 and
// 0 elsewhere, i.e. offset 0 or 2; see docs/trace-model.md).
void number_records(NodeDraft& d, const NativeNode& n, Diagnostics& diag) {
  auto& recs = d.node.records;
  std::vector<uint8_t> has_init_push;
  for (uint32_t i = 0; i < recs.size(); ++i) {
    Record& r = recs[i];
    if (!r.is_data()) {
      r.message = kNone;
      d.channels.add_setup(i);
      continue;
    }
    const uint32_t ch = d.channels.get_or_add(r.peer, r.key);
    if (has_init_push.size() <= ch) has_init_push.resize(ch + 1, 0);
    Channel& c = d.channels[ch];
    ++c.count;
    r.message = ch;
    if (r.op == Op::kPushSendWorker && r.iteration == 0) has_init_push[ch] = 1;
    if (n.has_opnum[i] != 0 && c.offset < 0) {
      const int off = numbering_offset(r.opnum, r.phase());
      c.offset = static_cast<int8_t>(off == 0 || off == 2 ? off : 2);
    }
  }
  for (uint32_t ch = 0; ch < d.channels.size(); ++ch) {
    Channel& c = d.channels[ch];
    if (c.offset < 0) {
      c.offset = static_cast<int8_t>(d.node.role == Role::kWorker && has_init_push[ch] ? 0 : 2);
    }
  }
  for (uint32_t i = 0; i < recs.size(); ++i) {
    Record& r = recs[i];
    if (!r.is_data()) continue;
    const int off = d.channels[r.message].offset;
    if (n.has_opnum[i] == 0) {
      r.opnum = opnum_of(r.iteration, r.phase(), off);
    } else if (iteration_of(r.opnum, r.phase(), off) != r.iteration) {
      diag.add(Problem::kAmbiguousOpnum, d.node.file, r.line,
               "field 'opnum': " + std::to_string(r.opnum) + " does not fall in iteration " +
                   std::to_string(r.iteration) + " of its channel's numbering; iteration kept");
    }
    r.set_flag(Record::kInitFlag, is_init_push(r));
  }
}

}  // namespace

void finish_native_node(NativeNode& n, Diagnostics& diag) {
  NodeDraft& d = n.draft;
  auto& recs = d.node.records;
  const auto count = static_cast<uint32_t>(recs.size());
  const std::string& file = d.node.file;

  std::vector<std::pair<int64_t, uint32_t>> by_id(count);
  for (uint32_t i = 0; i < count; ++i) by_id[i] = {n.ids[i], i};
  std::sort(by_id.begin(), by_id.end());
  for (size_t k = 1; k < by_id.size(); ++k) {
    if (by_id[k].first == by_id[k - 1].first) {
      diag.add(Problem::kBadNumber, file, recs[by_id[k].second].line,
               "field 'id': " + std::to_string(by_id[k].first) + " repeats the id of line " +
                   std::to_string(recs[by_id[k - 1].second].line) + " (ids are unique per node)");
    }
  }
  auto find = [&](int64_t id) -> uint32_t {
    auto it = std::lower_bound(by_id.begin(), by_id.end(), std::make_pair(id, uint32_t{0}));
    return it != by_id.end() && it->first == id ? it->second : kNone;
  };

  number_records(d, n, diag);

  std::vector<uint32_t> deps;
  deps.reserve(n.dep_ids.size());
  for (uint32_t i = 0; i < count; ++i) {
    Record& r = recs[i];
    const uint32_t begin = r.dep_begin;
    const uint32_t end =
        i + 1 < count ? recs[i + 1].dep_begin : static_cast<uint32_t>(n.dep_ids.size());
    r.dep_begin = static_cast<uint32_t>(deps.size());
    for (uint32_t k = begin; k < end; ++k) {
      const uint32_t t = find(n.dep_ids[k]);
      if (t == kNone) {
        diag.add(
            Problem::kDanglingDependency, file, r.line,
            "field 'deps': id " + std::to_string(n.dep_ids[k]) + " names no record of this node");
        continue;
      }
      if (!r.is_data() || recs[t].op != op_dep_target(r.op)) {
        diag.add(Problem::kBadDependency, file, r.line,
                 "field 'deps': id " + std::to_string(n.dep_ids[k]) + " is a " +
                     std::string(op_name(recs[t].op)) + " (line " + std::to_string(recs[t].line) +
                     "); " +
                     (r.is_data() ? "the dependency of a " + std::string(op_name(r.op)) + " is a " +
                                        std::string(op_name(op_dep_target(r.op)))
                                  : std::string("commands have no dependencies")));
        continue;
      }
      deps.push_back(t);
    }
    const int given = n.dep_type[i];
    const bool has_deps = deps.size() > r.dep_begin;
    const int want = has_deps ? static_cast<int>(op_dep_type(r.op)) : 0;
    if (given >= 0 && given != want) {
      diag.add(Problem::kBadDependency, file, r.line,
               "field 'dep_type': " + std::to_string(given) + " but the record " +
                   (has_deps ? "is a " + std::string(op_name(r.op)) + " with dependencies (" +
                                   std::to_string(want) + ")"
                             : std::string("has no dependencies (0)")));
    }
    r.set_dep_type(static_cast<DepType>(want));
  }
  d.node.deps = std::move(deps);
}

}  // namespace dlcnet::trace
