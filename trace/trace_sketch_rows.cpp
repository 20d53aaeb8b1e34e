// The checked row parser: every field, with a diagnostic naming the field and what was
// expected for each problem. Runs on the rows the fast path leaves (the first row of a file,
// set-up rows, anything unusual).
#include "trace/trace_sketch_reader.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace {
namespace {

constexpr std::string_view kRowStart = "every row starts with ID src dst length Dep_PP Operation";
constexpr std::string_view kDataRow =
    "a data row has 12 fields: ID src dst length Dep_PP Operation OP_ID dep_Type dTime "
    "time_sec time_usec IDdep";

}  // namespace

// A row problem drops the row. On the last line of a file that has no newline it is a capture
// cut short, so a warning.
bool DataFileReader::row_problem(Problem p, std::string msg) {
  if (cut_) {
    diag_.add(Problem::kTruncatedLine, path_, line_, "last line cut short (" + msg + "): ignored");
  } else {
    diag_.add(p, path_, line_, std::move(msg));
  }
  return false;
}

bool DataFileReader::missing(std::string_view field, std::string_view row_kind) {
  return row_problem(Problem::kMissingField,
                     "missing field '" + std::string(field) + "': " + std::string(row_kind));
}

bool DataFileReader::bad_number(std::string_view field, std::string_view tok,
                                std::string_view expected) {
  return row_problem(Problem::kBadNumber, "field '" + std::string(field) + "': expected " +
                                              std::string(expected) + ", found '" + excerpt(tok) +
                                              "'");
}

// Works out which node the row belongs to; false (row dropped) when it is not this file's.
bool DataFileReader::identify(Op op, int64_t src, int64_t dst, uint16_t& other, bool& sends) {
  const Role role = op_role(op);
  const int64_t total = int64_t{W_} + S_;
  if (op != Op::kCommandToServers && op != Op::kCommandToWorkers && !op_is_data(op)) {
    return row_problem(Problem::kWrongNode, "operation " + std::string(op_name(op)) +
                                                " belongs in trace_sch_record.txt");
  }
  auto is_worker = [&](int64_t r) { return r >= 0 && r < W_; };
  auto is_server = [&](int64_t r) { return r >= W_ && r < total; };
  // Commands travel both ways; this node is the end with its role's rank.
  sends = op_is_data(op) ? op_sends(op) : (role == Role::kWorker ? is_worker(src) : is_server(src));
  const int64_t s = sends ? src : dst;
  const int64_t o = sends ? dst : src;
  const std::string self_field = sends ? "src" : "dst";
  const std::string other_field = sends ? "dst" : "src";
  if (!(role == Role::kWorker ? is_worker(s) : is_server(s))) {
    return row_problem(Problem::kWrongNode,
                       "field '" + self_field + "': " + std::to_string(s) + " is not a " +
                           std::string(role_name(role)) + " rank of this job (" +
                           std::to_string(W_) + " workers, " + std::to_string(S_) +
                           " servers) but the operation is " + std::string(op_name(op)));
  }
  if (!(role == Role::kWorker ? is_server(o) : is_worker(o))) {
    return row_problem(Problem::kWrongNode,
                       "field '" + other_field + "': " + std::to_string(o) + " is not a " +
                           (role == Role::kWorker ? "server" : "worker") + " rank of this job");
  }
  if (!d_.identified) {
    d_.identified = true;
    d_.node.role = role;
    d_.node.rank = static_cast<uint16_t>(s);
    d_.node.index = static_cast<uint16_t>(role == Role::kWorker ? s : s - W_);
    peer_letter_ = role == Role::kWorker ? 's' : 'w';
    if (header_.role && *header_.role != role) {
      diag_.add(Problem::kHeaderRoleMismatch, path_, line_,
                "header names a " + std::string(role_name(*header_.role)) +
                    "_hostname but the rows are a " + std::string(role_name(role)) + "'s");
    }
  } else if (role != d_.node.role || s != d_.node.rank) {
    return row_problem(Problem::kWrongNode,
                       "field '" + self_field + "': " + std::string(op_name(op)) + " with " +
                           self_field + " " + std::to_string(s) + " is not a row of " +
                           d_.node.name() + ", whose file this is (from its earlier rows)");
  }
  other = static_cast<uint16_t>(o);
  return true;
}

// "key-opnum-<letter>N" (full) or "opnum-<letter>N" (key omitted: the record's own).
bool DataFileReader::parse_ref(std::string_view text, int32_t own_key, bool full_required,
                               RawRef& out, std::string_view field) {
  std::string_view s = text;
  auto bad = [&](const std::string& why) {
    return row_problem(field == "OP_ID" ? Problem::kBadOpId : Problem::kBadDependency,
                       "field '" + std::string(field) + "': '" + excerpt(text) + "' " + why);
  };
  const std::string example = "(e.g. 3-4-" + std::string(1, peer_letter_) + "0)";
  int32_t a = 0;
  if (!take_int(s, a) || s.empty() || s.front() != '-') {
    return bad("is not key-opnum-role " + example);
  }
  s.remove_prefix(1);
  int32_t key = own_key;
  int32_t opnum = a;
  const bool keyless = !s.empty() && (s.front() == 'w' || s.front() == 's');
  if (keyless && full_required) return bad("has no key: expected key-opnum-role " + example);
  if (!keyless) {
    int32_t b = 0;
    if (!take_int(s, b) || s.empty() || s.front() != '-') {
      return bad("is not key-opnum-role " + example);
    }
    s.remove_prefix(1);
    key = a;
    opnum = b;
  }
  if (s.empty() || s.front() != peer_letter_) {
    return bad(std::string("names a ") + (peer_letter_ == 's' ? "worker" : "server") + ": a " +
               std::string(role_name(d_.node.role)) + "'s file names its peers as " + peer_letter_ +
               "N");
  }
  s.remove_prefix(1);
  int32_t n = 0;
  const int32_t limit = peer_letter_ == 's' ? S_ : W_;
  if (!parse_int(s, n) || n < 0 || n >= limit) {
    return bad("names no " + std::string(peer_letter_ == 's' ? "server" : "worker") +
               " of this job (" + std::to_string(limit) + " of them)");
  }
  out.key = key;
  out.opnum = opnum;
  out.peer = static_cast<uint16_t>(peer_letter_ == 's' ? W_ + n : n);
  return true;
}

bool DataFileReader::parse_iddep(std::string_view text, ParsedRow& row, int dep_type) {
  if (text == "-1") {
    if (dep_type == 0) return true;
    return row_problem(Problem::kBadDependency,
                       "field 'IDdep': dep_Type " + std::to_string(dep_type) +
                           " needs the OP_ID of the record it depends on, found -1");
  }
  if (dep_type == 0) {
    return row_problem(Problem::kBadDependency,
                       "field 'IDdep': dep_Type 0 (independent) but "
                       "IDdep is '" +
                           excerpt(text) + "' (expected -1)");
  }
  const bool list = text.front() == '(';
  if (list) {
    if (text.back() != ')') {
      return row_problem(Problem::kBadDependency,
                         "field 'IDdep': list '" + excerpt(text) + "' has no closing ')'");
    }
    text = text.substr(1, text.size() - 2);
  }
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view entry = Tokenizer(text.substr(0, comma)).rest();
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (entry.empty()) continue;  // the capture ends lists with ", " or ","
    RawRef ref;
    ref.list_entry = list ? 1 : 0;
    if (!parse_ref(entry, row.rec.key, false, ref, "IDdep")) return false;
    row.add_ref(ref);
  }
  if (row.nrefs == 0) return row_problem(Problem::kBadDependency, "field 'IDdep': empty list");
  return true;
}

bool DataFileReader::parse_checked(std::string_view line, ParsedRow& row) {
  row.nrefs = 0;
  Tokenizer t(line);
  std::string_view tok;
  int64_t src = 0, dst = 0, length = 0, dep_pp = 0;
  t.next(tok);
  if (!parse_int(tok, row.id)) return bad_number("ID", tok, "an integer record counter");
  if (!t.next(tok)) return missing("src", kRowStart);
  if (!parse_int(tok, src)) return bad_number("src", tok, "a node rank");
  if (!t.next(tok)) return missing("dst", kRowStart);
  if (!parse_int(tok, dst)) return bad_number("dst", tok, "a node rank");
  if (!t.next(tok)) return missing("length", kRowStart);
  if (!parse_int(tok, length) || length < 0 || length > UINT32_MAX) {
    return bad_number("length", tok, "a byte count (0 to 4294967295)");
  }
  if (!t.next(tok)) return missing("Dep_PP", kRowStart);
  if (!parse_int(tok, dep_pp)) return bad_number("Dep_PP", tok, "an integer dispatch number");
  if (!t.next(tok)) return missing("Operation", kRowStart);
  std::string_view name;
  if (tok == "OP:=") {
    if (!t.next(name)) return missing("Operation", "'OP:=' is followed by the operation name");
  } else if (tok.starts_with("OP:=")) {
    name = tok.substr(4);
  } else {
    return row_problem(Problem::kMissingField,
                       "field 'Operation': expected 'OP:= <name>', found '" + excerpt(tok) + "'");
  }
  const auto op = op_from_name(name);
  if (!op) {
    return row_problem(Problem::kUnknownOperation,
                       "field 'Operation': unknown operation '" + excerpt(name) +
                           "' (expected Push_Send_Worker, Push_Recv_Worker, Pull_Send_Worker, "
                           "Pull_Recv_Worker, Push_Recv_Server, Push_Send_Server, "
                           "Pull_Recv_Server, Pull_Send_Server or SendCom_TO_Servers/Workers)");
  }
  uint16_t other = 0;
  bool sends = false;
  if (!identify(*op, src, dst, other, sends)) return false;
  Record& rec = row.rec;
  rec = Record{};
  rec.length = static_cast<uint32_t>(length);
  rec.op = *op;
  rec.line = line_;
  rec.peer = other;
  rec.set_flag(Record::kSendFlag, sends);
  rec.set_flag(Record::kInitFlag, dep_pp == -15);
  if (!op_is_data(*op)) return true;  // set-up rows end at the operation

  if (!t.next(tok)) return missing("OP_ID", kDataRow);
  RawRef me;
  if (!parse_ref(tok, 0, true, me, "OP_ID")) return false;
  if (me.peer != other) {
    return row_problem(Problem::kBadOpId, "field 'OP_ID': " + std::string(tok) + " names rank " +
                                              std::to_string(me.peer) + " but " +
                                              (sends ? "dst" : "src") + " is " +
                                              std::to_string(other));
  }
  rec.key = me.key;
  rec.opnum = me.opnum;
  int dep_type = 0;
  if (!t.next(tok)) return missing("dep_Type", kDataRow);
  if (!parse_int(tok, dep_type) || dep_type < 0 || dep_type > 4) {
    return bad_number("dep_Type", tok, "0, 1, 2, 3 or 4");
  }
  const auto allowed = static_cast<int>(op_dep_type(*op));
  if (dep_type != 0 && dep_type != allowed) {
    return row_problem(Problem::kBadDependency, "field 'dep_Type': " + std::to_string(dep_type) +
                                                    " is not valid for " +
                                                    std::string(op_name(*op)) + " (expected 0 or " +
                                                    std::to_string(allowed) + ")");
  }
  rec.set_dep_type(static_cast<DepType>(dep_type));
  int64_t dtime = 0, sec = 0, usec = 0;
  if (!t.next(tok)) return missing("dTime", kDataRow);
  if (!parse_int(tok, dtime) || dtime < -(int64_t{1} << 53) || dtime > (int64_t{1} << 53)) {
    return bad_number("dTime", tok, "an integer (microseconds)");
  }
  if (!t.next(tok)) return missing("time_sec", kDataRow);
  if (!parse_int(tok, sec) || sec < 0 || sec > 9'000'000'000) {
    return bad_number("time_sec", tok, "seconds since the epoch");
  }
  if (!t.next(tok)) return missing("time_usec", kDataRow);
  if (!parse_int(tok, usec) || usec < 0 || usec > 999'999'999) {
    return bad_number("time_usec", tok, "microseconds");
  }
  const std::string_view iddep = t.rest();
  if (iddep.empty()) return missing("IDdep", kDataRow);
  if (!parse_iddep(iddep, row, dep_type)) return false;
  rec.dtime_ns = dtime * 1000;
  rec.time_ns = sec * 1'000'000'000 + usec * 1000;
  return true;
}

}  // namespace dlcnet::trace
