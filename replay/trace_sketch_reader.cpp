// Reader of SketchDLC data files (trace_record.txt): header block, column line, then one row
// per record. The row parser is the loader's hot path: one pass, no allocation per field.
#include <climits>

#include "core/error.hpp"
#include "replay/trace_draft.hpp"
#include "replay/trace_sketch_header.hpp"
#include "replay/trace_text.hpp"

namespace dlcnet::trace {
namespace {

// The header block must be closed and the column line seen within this many lines: a file
// that is not a DLC trace is rejected in its first lines.
constexpr uint32_t kHeaderLines = 64;
constexpr int64_t kMaxRank = 65534;

class DataFileReader {
 public:
  DataFileReader(const std::string& path, NodeDraft& d, Diagnostics& diag)
      : path_(path), d_(d), diag_(diag) {}

  bool run() {
    LineReader in(path_);
    std::string_view line;
    bool had_newline = true;
    while (in.next(line, &had_newline)) {
      line_ = in.line_number();
      if (state_ != State::kRows) {
        if (!header_line(line)) return false;
        if (state_ == State::kRows) reserve();
        continue;
      }
      if (Tokenizer(line).rest().empty()) continue;
      cut_ = !had_newline;
      if (line.front() == '=') {
        error(Problem::kBadHeader, "a second header block: the file holds more than one capture");
        continue;
      }
      parse_row(line);
    }
    if (state_ != State::kRows) {
      error(Problem::kBadHeader,
            state_ == State::kStart
                ? "empty file: expected the header block of a SketchDLC trace"
                : "file ends before the column line '" + std::string(kColumnLine) + "'");
      return false;
    }
    return true;
  }

 private:
  enum class State { kStart, kHeader, kColumns, kRows };

  void error(Problem p, std::string msg) { diag_.add(p, path_, line_, std::move(msg)); }

  // A row problem drops the row. On the last line of a file that has no newline it is a
  // capture cut short, so a warning.
  bool row_problem(Problem p, std::string msg) {
    d_.refs.resize(refs_mark_);
    if (cut_) {
      diag_.add(Problem::kTruncatedLine, path_, line_,
                "last line cut short (" + msg + "): ignored");
    } else {
      diag_.add(p, path_, line_, std::move(msg));
    }
    return false;
  }
  bool missing(std::string_view field, std::string_view row_kind) {
    return row_problem(Problem::kMissingField,
                       "missing field '" + std::string(field) + "': " + std::string(row_kind));
  }
  bool bad_number(std::string_view field, std::string_view tok, std::string_view expected) {
    return row_problem(Problem::kBadNumber, "field '" + std::string(field) + "': expected " +
                                                std::string(expected) + ", found '" + excerpt(tok) +
                                                "'");
  }

  bool header_line(std::string_view line) {
    const bool blank = Tokenizer(line).rest().empty();
    switch (state_) {
      case State::kStart:
        if (blank) return true;
        if (is_rule_line(line)) {
          state_ = State::kHeader;
          return true;
        }
        error(starts_with_id(line) ? Problem::kBadHeader : Problem::kNotATrace,
              starts_with_id(line)
                  ? "missing header block: a SketchDLC trace starts with a line of '=' and "
                    "the num_workers/num_servers line"
                  : "not a SketchDLC trace: expected the header block (a line of '=' signs), "
                    "found '" +
                        excerpt(line) + "'");
        return false;
      case State::kHeader:
        if (is_rule_line(line)) {
          if (header_.num_workers < 1 || header_.num_servers < 1 ||
              header_.num_workers + header_.num_servers > kMaxRank) {
            error(Problem::kBadHeader,
                  "header block has no usable 'num_workers: = W  num_servers: = S' line");
            return false;
          }
          state_ = State::kColumns;
          return true;
        }
        parse_header_line(line, header_);
        if (line_ > kHeaderLines) {
          error(Problem::kNotATrace,
                "not a SketchDLC trace: header block not closed by a line of '=' signs");
          return false;
        }
        return true;
      case State::kColumns:
        if (blank) return true;
        if (!is_column_line(line)) {
          error(starts_with_id(line) ? Problem::kBadHeader : Problem::kNotATrace,
                "expected the column line '" + std::string(kColumnLine) + "', found '" +
                    excerpt(line, 60) + "'");
          return false;
        }
        state_ = State::kRows;
        return true;
      case State::kRows:
        return true;
    }
    return true;
  }

  void reserve() {
    W_ = static_cast<uint16_t>(header_.num_workers);
    S_ = static_cast<uint16_t>(header_.num_servers);
    d_.num_workers = header_.num_workers;
    d_.num_servers = header_.num_servers;
    d_.node.hostname = header_.hostname;
    // One counting pass lets the records vector be sized exactly: no doubling, no slack.
    const uint64_t lines = count_lines(path_);
    d_.node.records.reserve(static_cast<size_t>(lines > line_ ? lines - line_ + 1 : 1));
    d_.refs.reserve(d_.node.records.capacity());
  }

  // Works out which node the row belongs to; false (row dropped) when it is not this file's.
  bool identify(Op op, int64_t src, int64_t dst, uint16_t& self, uint16_t& other, bool& sends) {
    const Role role = op_role(op);
    const int64_t total = int64_t{W_} + S_;
    if (role == Role::kScheduler || op == Op::kWorkerSendSch || op == Op::kServerSendSch ||
        op == Op::kSchedulerToWorker || op == Op::kSchedulerToServer) {
      return row_problem(Problem::kWrongNode, "operation " + std::string(op_name(op)) +
                                                  " belongs in trace_sch_record.txt");
    }
    auto is_worker = [&](int64_t r) { return r >= 0 && r < W_; };
    auto is_server = [&](int64_t r) { return r >= W_ && r < total; };
    if (op_is_data(op)) {
      sends = op_sends(op);
    } else {
      // Commands travel both ways; this node is the end with its role's rank.
      sends = role == Role::kWorker ? is_worker(src) : is_server(src);
    }
    const int64_t s = sends ? src : dst;
    const int64_t o = sends ? dst : src;
    const char* self_field = sends ? "src" : "dst";
    const char* other_field = sends ? "dst" : "src";
    const bool self_ok = role == Role::kWorker ? is_worker(s) : is_server(s);
    if (!self_ok) {
      return row_problem(Problem::kWrongNode,
                         "field '" + std::string(self_field) + "': " + std::to_string(s) +
                             " is not a " + std::string(role_name(role)) + " rank of this job (" +
                             std::to_string(W_) + " workers, " + std::to_string(S_) +
                             " servers) but the operation is " + std::string(op_name(op)));
    }
    const bool other_ok = role == Role::kWorker ? is_server(o) : is_worker(o);
    if (!other_ok) {
      return row_problem(Problem::kWrongNode, "field '" + std::string(other_field) +
                                                  "': " + std::to_string(o) + " is not a " +
                                                  (role == Role::kWorker ? "server" : "worker") +
                                                  " rank of this job");
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
                         "field '" + std::string(self_field) + "': " + std::string(op_name(op)) +
                             " with " + self_field + " " + std::to_string(s) + " is not a row of " +
                             d_.node.name() + ", whose file this is (from its earlier rows)");
    }
    self = static_cast<uint16_t>(s);
    other = static_cast<uint16_t>(o);
    return true;
  }

  // "key-opnum-<letter>N" (full) or "opnum-<letter>N" (key omitted: the record's own).
  bool parse_ref(std::string_view text, int32_t own_key, bool full_required, RawRef& out,
                 std::string_view field) {
    std::string_view s = text;
    auto bad = [&](std::string why) {
      return row_problem(field == "OP_ID" ? Problem::kBadOpId : Problem::kBadDependency,
                         "field '" + std::string(field) + "': '" + excerpt(text) + "' " + why);
    };
    int32_t a = 0;
    if (!take_int(s, a) || s.empty() || s.front() != '-') {
      return bad("is not key-opnum-role (e.g. 3-4-" + std::string(1, peer_letter_) + "0)");
    }
    s.remove_prefix(1);
    int32_t key = own_key;
    int32_t opnum = a;
    const bool keyless = !s.empty() && (s.front() == 'w' || s.front() == 's');
    if (keyless && full_required) return bad("has no key: expected key-opnum-role");
    if (!keyless) {
      int32_t b = 0;
      if (!take_int(s, b) || s.empty() || s.front() != '-') {
        return bad("is not key-opnum-role (e.g. 3-4-" + std::string(1, peer_letter_) + "0)");
      }
      s.remove_prefix(1);
      key = a;
      opnum = b;
    }
    if (s.empty() || s.front() != peer_letter_) {
      return bad(std::string("names a ") + (peer_letter_ == 's' ? "worker" : "server") + ": a " +
                 std::string(role_name(d_.node.role)) + "'s file names its peers as " +
                 peer_letter_ + "N");
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

  bool parse_iddep(std::string_view text, Record& rec, int dep_type) {
    if (text == "-1") {
      if (dep_type != 0) {
        return row_problem(Problem::kBadDependency,
                           "field 'IDdep': dep_Type " + std::to_string(dep_type) +
                               " needs the OP_ID of the record it depends on, found -1");
      }
      return true;
    }
    if (dep_type == 0) {
      return row_problem(Problem::kBadDependency,
                         "field 'IDdep': dep_Type 0 (independent) but IDdep is '" + excerpt(text) +
                             "' (expected -1)");
    }
    const bool list = text.front() == '(';
    if (list) {
      if (text.back() != ')') {
        return row_problem(Problem::kBadDependency,
                           "field 'IDdep': list '" + excerpt(text) + "' has no closing ')'");
      }
      text = text.substr(1, text.size() - 2);
    }
    size_t entries = 0;
    while (!text.empty()) {
      const size_t comma = text.find(',');
      std::string_view entry = text.substr(0, comma);
      text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
      entry = Tokenizer(entry).rest();
      if (entry.empty()) continue;  // the capture ends lists with ", " or ","
      RawRef ref;
      ref.list_entry = list ? 1 : 0;
      if (!parse_ref(entry, rec.key, false, ref, "IDdep")) return false;
      d_.refs.push_back(ref);
      ++entries;
    }
    if (entries == 0) {
      return row_problem(Problem::kBadDependency, "field 'IDdep': empty list '()'");
    }
    return true;
  }

  void check_order(int64_t id, int64_t time_ns) {
    if (id == prev_id_) {
      if (diag_.wants(Problem::kRepeatedId)) {
        diag_.add(Problem::kRepeatedId, path_, line_,
                  "ID " + std::to_string(id) + " repeats the previous record's");
      } else {
        diag_.count(Problem::kRepeatedId);
      }
    } else if (id < prev_id_ || (time_ns != 0 && time_ns < prev_time_)) {
      if (diag_.wants(Problem::kOutOfOrder)) {
        diag_.add(Problem::kOutOfOrder, path_, line_,
                  id < prev_id_
                      ? "ID " + std::to_string(id) + " after ID " + std::to_string(prev_id_)
                      : "time stamp earlier than the previous record's");
      } else {
        diag_.count(Problem::kOutOfOrder);
      }
    }
    prev_id_ = id;
    if (time_ns != 0) prev_time_ = time_ns;
  }

  bool parse_row(std::string_view line);

  const std::string& path_;
  NodeDraft& d_;
  Diagnostics& diag_;
  SketchHeader header_;
  State state_ = State::kStart;
  uint32_t line_ = 0;
  bool cut_ = false;
  size_t refs_mark_ = 0;
  int64_t prev_id_ = INT64_MIN;
  int64_t prev_time_ = INT64_MIN;
  uint16_t W_ = 0;
  uint16_t S_ = 0;
  char peer_letter_ = '?';
};

constexpr std::string_view kRowStart = "every row starts with ID src dst length Dep_PP Operation";
constexpr std::string_view kDataRow =
    "a data row has 12 fields: ID src dst length Dep_PP Operation OP_ID dep_Type dTime "
    "time_sec time_usec IDdep";

bool DataFileReader::parse_row(std::string_view line) {
  refs_mark_ = d_.refs.size();
  Tokenizer t(line);
  std::string_view tok;
  int64_t id = 0, src = 0, dst = 0, length = 0, dep_pp = 0;
  t.next(tok);
  if (!parse_int(tok, id)) return bad_number("ID", tok, "an integer record counter");
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
  uint16_t self = 0, other = 0;
  bool sends = false;
  if (!identify(*op, src, dst, self, other, sends)) return false;

  Record rec;
  rec.length = static_cast<uint32_t>(length);
  rec.op = *op;
  rec.line = line_;
  rec.peer = other;
  rec.set_flag(Record::kSendFlag, sends);
  rec.set_flag(Record::kInitFlag, dep_pp == -15);
  rec.dep_begin = static_cast<uint32_t>(d_.refs.size());
  if (!op_is_data(*op)) {
    // Set-up rows carry only ID src dst length Dep_PP Operation.
    rec.message = kNone;
    check_order(id, 0);
    d_.node.records.push_back(rec);
    return true;
  }

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
  if (!parse_int(tok, dtime)) return bad_number("dTime", tok, "an integer (microseconds)");
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
  if (!parse_iddep(iddep, rec, dep_type)) return false;
  rec.dtime_ns = dtime * 1000;
  rec.time_ns = sec * 1'000'000'000 + usec * 1000;

  // Channel and iteration: the first record of a channel fixes its numbering offset.
  const uint32_t ch_id = d_.channels.get_or_add(other, rec.key);
  Channel& ch = d_.channels[ch_id];
  const int off = numbering_offset(rec.opnum, rec.phase());
  if (ch.offset < 0) ch.offset = static_cast<int8_t>(off == 0 || off == 2 ? off : 2);
  if (off != ch.offset) {
    if (diag_.wants(Problem::kAmbiguousOpnum)) {
      diag_.add(Problem::kAmbiguousOpnum, path_, line_,
                "field 'OP_ID': opnum " + std::to_string(rec.opnum) + " of " +
                    std::string(op_name(rec.op)) + " does not fall at position " +
                    std::to_string(static_cast<int>(rec.phase())) +
                    " of its group of four; iteration taken from the channel's numbering");
    } else {
      diag_.count(Problem::kAmbiguousOpnum);
    }
  }
  rec.iteration = iteration_of(rec.opnum, rec.phase(), ch.offset);
  ++ch.count;
  rec.message = ch_id;
  check_order(id, rec.time_ns);
  d_.node.records.push_back(rec);
  return true;
}

}  // namespace

bool read_sketch_data_file(const std::string& path, NodeDraft& draft, Diagnostics& diag) {
  draft.node.file = path;
  try {
    DataFileReader reader(path, draft, diag);
    return reader.run();
  } catch (const Error& e) {
    diag.add(Problem::kIo, path, 0, e.what());
    return false;
  }
}

}  // namespace dlcnet::trace
