// Internal to the SketchDLC data-file reader, split over three files:
//   trace_sketch_reader.cpp  the file: header block, column line, committing rows to the node
//   trace_sketch_fast.cpp    the hot path: well-formed data rows in one pass, no diagnostics
//   trace_sketch_rows.cpp    every row, field by field, with a diagnostic for each problem
// A row the fast path does not accept goes through the checked path, so the two never differ
// on what is accepted, only on speed.
#pragma once

#include <array>
#include <climits>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_draft.hpp"
#include "trace/trace_sketch_header.hpp"

namespace dlcnet::trace {

// A data or set-up row as parsed, before it joins the node.
struct ParsedRow {
  Record rec;
  int64_t id = 0;
  std::vector<RawRef> refs;  // IDdep entries: the first nrefs (the vector only grows)
  size_t nrefs = 0;
  [[gnu::always_inline]] void add_ref(const RawRef& r) {
    if (nrefs == refs.size()) refs.resize(refs.size() * 2 + 16);
    refs[nrefs++] = r;
  }
};

struct RowProbe;  // tests/fuzz/fuzz_sketch_rows_diff.cpp: the fast and checked row paths

class DataFileReader {
 public:
  DataFileReader(const std::string& path, NodeDraft& d, Diagnostics& diag)
      : path_(path), d_(d), diag_(diag) {}
  // `given`: the file already open (a pipe whose first bytes were peeked), else opened here.
  bool run(LineReader* given = nullptr);

 private:
  enum class State { kStart, kHeader, kColumns, kRows };
  // The last opnums seen in a channel: most dependencies name one of them, so they resolve
  // while the file is read, without a search.
  struct RingSlot {
    int32_t opnum = INT32_MIN;
    uint32_t idx = kNone;
    Op op = Op::kPushSendWorker;  // the record's, so that checking it touches no record
  };
  using Ring = std::array<RingSlot, 8>;

  // trace_sketch_reader.cpp
  void error(Problem p, std::string msg) { diag_.add(p, path_, line_, std::move(msg)); }
  bool header_line(std::string_view line);
  void start_rows();
  void reserve(uint64_t consumed, uint64_t file_size);
  void commit(ParsedRow& row);
  size_t expected_deps(size_t extra) const;
  void fit_deps();  // grows the dependencies to expected_deps() if they are short of it
  void grow_deps(size_t extra);
  // The record a dependency names, if it is among the last opnums of channel `ch`.
  uint32_t resolve_now(const Record& rec, const RawRef& ref, uint32_t ch);
  // IDs count up and time stamps do not go back, or a warning.
  void check_order(int64_t id, int64_t time_ns) {
    if (prev_id_ != INT64_MAX && id == prev_id_ + 1 && time_ns >= prev_time_) {
      prev_id_ = id;
      if (time_ns != 0) prev_time_ = time_ns;
      return;
    }
    check_order_slow(id, time_ns);
  }
  void check_order_slow(int64_t id, int64_t time_ns);

  // trace_sketch_fast.cpp
  bool parse_fast(std::string_view line, ParsedRow& row);
  bool same_sec(const char* p, const char* line_end, int64_t& sec);

  // trace_sketch_rows.cpp
  bool parse_checked(std::string_view line, ParsedRow& row);
  bool row_problem(Problem p, std::string msg);
  bool missing(std::string_view field, std::string_view row_kind);
  bool bad_number(std::string_view field, std::string_view tok, std::string_view expected);
  bool identify(Op op, int64_t src, int64_t dst, uint16_t& other, bool& sends);
  bool parse_ref(std::string_view text, int32_t own_key, bool full_required, RawRef& out,
                 std::string_view field);
  bool parse_iddep(std::string_view text, ParsedRow& row, int dep_type);

  friend struct RowProbe;

  const std::string& path_;
  NodeDraft& d_;
  Diagnostics& diag_;
  SketchHeader header_;
  State state_ = State::kStart;
  uint32_t line_ = 0;
  bool cut_ = false;  // the current line is the file's last and has no newline
  int64_t prev_id_ = INT64_MIN;
  int64_t prev_time_ = INT64_MIN;
  uint16_t W_ = 0;
  uint16_t S_ = 0;
  char peer_letter_ = '?';   // 's' in a worker's file, 'w' in a server's
  std::vector<Ring> rings_;  // by channel id
  // time_sec changes once a second of capture: the last one's text (and the blank after it)
  // and value, so that most rows compare 16 bytes instead of parsing ten digits.
  uint64_t sec_text_[2] = {0, 0};
  uint64_t sec_mask_[2] = {0, 0};
  int64_t sec_value_ = 0;
  bool sec_known_ = false;
  uint64_t rows_start_ = 0;  // bytes before the first row
  bool reserved_ = false;
  uint64_t deps_check_at_ = UINT64_MAX;  // file offset at which to re-estimate the dependencies
};

}  // namespace dlcnet::trace
