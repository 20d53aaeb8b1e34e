// Reader of the native CSV format (docs/native-trace-format.md).
#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <optional>

#include "core/error.hpp"
#include "trace/trace_csv.hpp"
#include "trace/trace_native.hpp"
#include "trace/trace_native_node.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace {
namespace {

enum Col {
  kNodeCol,
  kId,
  kOp,
  kPeer,
  kKey,
  kIteration,
  kBytes,
  kTime,
  kDtime,
  kDeps,
  kOpnum,
  kDepTypeCol,
  kNumCols
};
constexpr std::array<std::string_view, kNumCols> kColNames{
    "node",  "id",      "op",       "peer", "key",   "iteration",
    "bytes", "time_ns", "dtime_ns", "deps", "opnum", "dep_type"};

std::string_view trim(std::string_view s) {
  return Tokenizer(s).rest();
}

// "w3" / "s1" -> role and index.
std::optional<std::pair<Role, int32_t>> parse_node_name(std::string_view s) {
  if (s.size() < 2 || (s[0] != 'w' && s[0] != 's')) return std::nullopt;
  int32_t i = 0;
  if (!parse_int(s.substr(1), i) || i < 0) return std::nullopt;
  return std::make_pair(s[0] == 'w' ? Role::kWorker : Role::kServer, i);
}

// Names are the node's own action: a server's "push_recv" receives a worker's push.
std::optional<Op> parse_op(std::string_view s, Role role, bool& sends) {
  struct Name {
    std::string_view name;
    Op worker;
    Op server;
  };
  static constexpr std::array<Name, 4> kData{
      {{"push_send", Op::kPushSendWorker, Op::kPushSendServer},
       {"push_recv", Op::kPushRecvWorker, Op::kPushRecvServer},
       {"pull_send", Op::kPullSendWorker, Op::kPullSendServer},
       {"pull_recv", Op::kPullRecvWorker, Op::kPullRecvServer}}};
  if (s == "command_send" || s == "command_recv") {
    sends = s == "command_send";
    return role == Role::kWorker ? Op::kCommandToServers : Op::kCommandToWorkers;
  }
  for (const Name& n : kData) {
    if (s == n.name) {
      const Op op = role == Role::kWorker ? n.worker : n.server;
      sends = op_sends(op);
      return op;
    }
  }
  return std::nullopt;
}

class NativeReader {
 public:
  NativeReader(const std::string& path, Diagnostics& diag) : path_(path), diag_(diag) {}
  bool run(std::vector<NodeDraft>& out, LineReader* given);

 private:
  void error(Problem p, std::string msg) { diag_.add(p, path_, line_, std::move(msg)); }
  bool header(std::string_view line);
  bool columns(std::string_view line);
  void row(std::string_view line);

  const std::string& path_;
  Diagnostics& diag_;
  uint32_t line_ = 0;
  int32_t W_ = -1;
  int32_t S_ = -1;
  CsvColumns cols_{kColNames};
  std::vector<std::string_view> fields_;
  std::map<uint16_t, NativeNode> nodes_;  // by rank
};

bool NativeReader::header(std::string_view line) {
  const std::string form = std::string(kNativeMagic) + " workers=W servers=S";
  const NativeMagic m = read_native_magic(line, form);
  if (m.version == 0) {
    error(m.problem, m.error);
    return false;
  }
  if (m.version != kNativeVersion) {
    error(Problem::kBadHeader,
          "native format version " + std::to_string(m.version) +
              (m.version == kNativeAnyRankVersion
                   ? " (an any-rank job) is read from a regular file, not a pipe"
                   : ": this dlcnet reads versions 1 and 2 (a newer dlcnet wrote the file?)"));
    return false;
  }
  Tokenizer t(m.rest);
  std::string_view tok;
  while (t.next(tok)) {
    if (tok.starts_with("workers=")) parse_int(tok.substr(8), W_);
    if (tok.starts_with("servers=")) parse_int(tok.substr(8), S_);
  }
  if (W_ < 1 || S_ < 1 || int64_t{W_} + S_ > 65534) {
    error(Problem::kBadHeader, "the first line must give workers=W and servers=S (W, S >= 1)");
    return false;
  }
  return true;
}

bool NativeReader::columns(std::string_view line) {
  if (std::string dup = cols_.read(line); !dup.empty()) {
    error(Problem::kBadHeader, std::move(dup));
    return false;
  }
  for (Col c : {kNodeCol, kId, kOp, kPeer, kKey, kIteration, kBytes}) {
    if (!cols_.has(c)) {
      error(Problem::kBadHeader, "column line has no '" + std::string(kColNames[c]) +
                                     "' column (required: node, id, op, peer, key, iteration, "
                                     "bytes)");
      return false;
    }
  }
  return true;
}

void NativeReader::row(std::string_view line) {
  split_fields(line, fields_);
  auto field = [&](Col c) { return cols_.field(fields_, c); };
  auto bad = [&](Col c, std::string expected) {
    error(field(c).empty() ? Problem::kMissingField : Problem::kBadNumber,
          "field '" + std::string(kColNames[c]) + "': expected " + expected + ", found '" +
              excerpt(field(c)) + "'");
  };
  const auto who = parse_node_name(field(kNodeCol));
  if (!who || (who->first == Role::kWorker ? who->second >= W_ : who->second >= S_)) {
    return bad(kNodeCol, "w<N> or s<N> naming a node of this job");
  }
  const Role role = who->first;
  const auto rank = static_cast<uint16_t>(role == Role::kWorker ? who->second : W_ + who->second);
  bool sends = false;
  const auto op = parse_op(field(kOp), role, sends);
  if (!op)
    return bad(kOp, "push_send, push_recv, pull_send, pull_recv, command_send or command_recv");
  const auto peer = parse_node_name(field(kPeer));
  if (!peer || peer->first == role ||
      (peer->first == Role::kWorker ? peer->second >= W_ : peer->second >= S_)) {
    return bad(kPeer, std::string("a ") +
                          (role == Role::kWorker ? "server (s<N>)" : "worker (w<N>)") +
                          " of this job");
  }
  int64_t id = 0, bytes = 0, time_ns = 0, dtime_ns = 0;
  int32_t key = -1, iteration = -1, opnum = 0;
  if (!parse_int(field(kId), id) || id < 0) return bad(kId, "a non-negative integer");
  if (!parse_int(field(kBytes), bytes) || bytes < 0 || bytes > UINT32_MAX) {
    return bad(kBytes, "a byte count");
  }
  if (op_is_data(*op)) {
    if (!parse_int(field(kKey), key)) return bad(kKey, "an integer key");
    if (!parse_int(field(kIteration), iteration) || iteration < 0) {
      return bad(kIteration, "0 (initialisation) or a training iteration >= 1");
    }
  }
  if (!field(kTime).empty() && !parse_int(field(kTime), time_ns)) return bad(kTime, "nanoseconds");
  if (!field(kDtime).empty() && !parse_int(field(kDtime), dtime_ns)) {
    return bad(kDtime, "nanoseconds");
  }
  const bool has_opnum = !field(kOpnum).empty();
  if (has_opnum && !parse_int(field(kOpnum), opnum)) return bad(kOpnum, "an integer");
  int dep_type = -1;
  if (!field(kDepTypeCol).empty() &&
      (!parse_int(field(kDepTypeCol), dep_type) || dep_type < 0 || dep_type > 4)) {
    return bad(kDepTypeCol, "0 to 4");
  }

  NativeNode& n = nodes_[rank];
  if (!n.draft.identified) {
    n.draft.identified = true;
    n.draft.node.rank = rank;
    n.draft.node.role = role;
    n.draft.node.index = static_cast<uint16_t>(who->second);
    n.draft.node.file = path_;
    n.draft.num_workers = W_;
    n.draft.num_servers = S_;
  }
  Record rec;
  rec.time_ns = time_ns;
  rec.dtime_ns = dtime_ns;
  rec.length = static_cast<uint32_t>(bytes);
  rec.key = key;
  rec.opnum = opnum;
  rec.iteration = iteration;
  rec.line = line_;
  rec.op = *op;
  rec.peer = static_cast<uint16_t>(peer->first == Role::kWorker ? peer->second : W_ + peer->second);
  rec.set_flag(Record::kSendFlag, sends);
  rec.dep_begin = static_cast<uint32_t>(n.dep_ids.size());
  if (!parse_id_list(field(kDeps), n.dep_ids)) {
    return bad(kDeps, "ids of records of the same node separated by ';'");
  }
  n.draft.node.records.push_back(rec);
  n.ids.push_back(id);
  n.has_opnum.push_back(has_opnum ? 1 : 0);
  n.dep_type.push_back(static_cast<int8_t>(dep_type));
}

bool NativeReader::run(std::vector<NodeDraft>& out, LineReader* given) {
  try {
    std::optional<LineReader> own;
    LineReader& in = given != nullptr ? *given : own.emplace(path_);
    std::string_view line;
    int state = 0;  // 0 magic, 1 columns, 2 rows
    while (in.next(line)) {
      line_ = in.line_number();
      if (state == 0) {
        if (!header(line)) return false;
        state = 1;
        continue;
      }
      if (trim(line).empty() || line.front() == '#') continue;
      if (state == 1) {
        if (!columns(line)) return false;
        state = 2;
        continue;
      }
      row(line);
    }
    if (state < 2) {
      error(Problem::kBadHeader, "file ends before the column line");
      return false;
    }
  } catch (const Error& e) {
    diag_.add(Problem::kIo, path_, 0, e.what());
    return false;
  }
  for (auto& [rank, n] : nodes_) {
    finish_native_node(n, diag_);
    out.push_back(std::move(n.draft));
  }
  return true;
}

}  // namespace

bool read_native_file(const std::string& path, std::vector<NodeDraft>& drafts, Diagnostics& diag,
                      LineReader* in) {
  NativeReader reader(path, diag);
  return reader.run(drafts, in);
}

}  // namespace dlcnet::trace
