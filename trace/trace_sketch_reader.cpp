// Reader of SketchDLC data files (trace_record.txt): header block, column line, then one row
// per record, committed to the node as it is read.
#include "trace/trace_sketch_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include "core/error.hpp"
#include "trace/trace_pages.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace {
namespace {

// The header block must be closed and the column line seen within this many lines: a file
// that is not a DLC trace is rejected in its first lines.
constexpr uint32_t kHeaderLines = 64;
// Rows read before the vectors are sized from the average row length.
constexpr size_t kSampleRows = 4096;

bool blank(std::string_view line) {
  return line.empty() || (is_space(line.front()) && Tokenizer(line).rest().empty());
}

int64_t last_row_id(const std::string& path, uint64_t file_size);

}  // namespace

bool DataFileReader::run(LineReader* given) {
  std::optional<LineReader> own;
  LineReader& in = given != nullptr ? *given : own.emplace(path_);
  std::string_view line;
  bool had_newline = true;
  ParsedRow row;
  while (in.next(line, &had_newline)) {
    line_ = in.line_number();
    if (state_ != State::kRows) {
      if (!header_line(line)) return false;
      if (state_ == State::kRows) rows_start_ = in.consumed();
      continue;
    }
    if (blank(line)) continue;
    cut_ = !had_newline;
    if (line.front() == '=') {
      error(Problem::kBadHeader, "a second header block: the file holds more than one capture");
      continue;
    }
    row.nrefs = 0;
    if (parse_fast(line, row) || parse_checked(line, row)) commit(row);
    if (!reserved_ && d_.node.records.size() == kSampleRows) {
      reserve(in.consumed(), in.file_size());
      deps_check_at_ = rows_start_ + (in.file_size() - rows_start_) / 16;
    } else if (in.consumed() >= deps_check_at_) {
      deps_check_at_ = UINT64_MAX;
      fit_deps();
    }
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

bool DataFileReader::header_line(std::string_view line) {
  switch (state_) {
    case State::kStart:
      if (blank(line)) return true;
      if (is_rule_line(line)) {
        state_ = State::kHeader;
        return true;
      }
      if (starts_with_id(line)) {
        error(Problem::kBadHeader,
              "missing header block: a SketchDLC trace starts with a line of '=' and the "
              "num_workers/num_servers line");
      } else if (line.starts_with(kUtf8Bom)) {
        error(Problem::kBadHeader,
              "the file starts with a UTF-8 byte-order mark (bytes EF BB BF): save it without "
              "one (a SketchDLC trace starts with its header block, a line of '=' signs)");
      } else {
        error(Problem::kNotATrace,
              "not a SketchDLC trace: expected the header block (a line of '=' signs), found '" +
                  excerpt(line) + "'");
      }
      return false;
    case State::kHeader:
      if (is_rule_line(line)) {
        if (header_.num_workers < 1 || header_.num_servers < 1 ||
            int64_t{header_.num_workers} + header_.num_servers > 65534) {
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
      if (blank(line)) return true;
      if (!is_column_line(line)) {
        error(starts_with_id(line) ? Problem::kBadHeader : Problem::kNotATrace,
              "expected the column line '" + std::string(kColumnLine) + "', found '" +
                  excerpt(line, 60) + "'");
        return false;
      }
      start_rows();
      return true;
    case State::kRows:
      return true;
  }
  return true;
}

void DataFileReader::start_rows() {
  state_ = State::kRows;
  W_ = static_cast<uint16_t>(header_.num_workers);
  S_ = static_cast<uint16_t>(header_.num_servers);
  d_.num_workers = header_.num_workers;
  d_.num_servers = header_.num_servers;
  d_.node.hostname = header_.hostname;
}

namespace {

// The ID of the file's last row, from its last 64 KB: the capture numbers rows from 0, so this
// sizes the records vector exactly on a clean file. -1 when it cannot be read.
int64_t last_row_id(const std::string& path, uint64_t file_size) {
  const uint64_t tail = std::min<uint64_t>(file_size, 64 * 1024);
  std::string buf(tail, '\0');
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  const ssize_t n = ::pread(fd, buf.data(), tail, static_cast<off_t>(file_size - tail));
  ::close(fd);
  if (n <= 0) return -1;
  buf.resize(static_cast<size_t>(n));
  while (!buf.empty() && (buf.back() == '\n' || is_space(buf.back()))) buf.pop_back();
  const size_t nl = buf.rfind('\n');
  if (nl == std::string::npos) return -1;
  Tokenizer t(std::string_view(buf).substr(nl + 1));
  std::string_view tok;
  int64_t id = -1;
  if (!t.next(tok) || !parse_int(tok, id)) return -1;
  return id;
}

}  // namespace

// Sizes the vectors once, after a sample of rows (the dependencies from the records' size and
// the sample's rate, see expected_deps()): no doubling (which would hold up to twice
// the memory). Rows from the last row's ID when it is plausible, else from the sample's
// average length (which overestimates: early rows have shorter numbers).
void DataFileReader::reserve(uint64_t consumed, uint64_t file_size) {
  reserved_ = true;
  // A pipe or FIFO has no size (0), and a file may shrink while read: nothing to size the
  // vectors by (they grow as rows come).
  if (file_size <= consumed || file_size <= rows_start_) return;
  auto& recs = d_.node.records;
  const uint64_t sample = consumed > rows_start_ ? consumed - rows_start_ : 1;
  const double per_row = static_cast<double>(sample) / static_cast<double>(recs.size());
  double rows = static_cast<double>(file_size - rows_start_) / per_row * 1.02;
  const int64_t last = last_row_id(path_, file_size);
  if (last >= static_cast<int64_t>(recs.size()) && static_cast<double>(last) < rows) {
    rows = static_cast<double>(last) * 1.001;
  }
  const auto want = static_cast<size_t>(rows) + 64;
  if (want > recs.capacity()) {
    recs.reserve(want);
    prefault(recs.data() + recs.size(), (recs.capacity() - recs.size()) * sizeof(Record));
  }
  fit_deps();
}

// Dependencies the file will hold at the rate per row seen so far (rows from the records
// vector, sized from the last row's ID): the early rows of a capture have fewer than the rest,
// so the first sample's estimate is checked again on a 16th of the file.
size_t DataFileReader::expected_deps(size_t extra) const {
  const auto& deps = d_.node.deps;
  const auto& recs = d_.node.records;
  const double per_row = static_cast<double>(deps.size() + extra) /
                         static_cast<double>(std::max<size_t>(recs.size(), 1));
  const size_t rows_left = recs.capacity() > recs.size() ? recs.capacity() - recs.size() : 0;
  return deps.size() + extra +
         static_cast<size_t>(static_cast<double>(rows_left) * per_row * 1.01) + 64;
}

void DataFileReader::fit_deps() {
  if (expected_deps(0) > d_.node.deps.capacity()) grow_deps(0);
}

// Sizes the vector once more instead of doubling it (a copy of the whole vector, another when
// it is trimmed, and up to twice the memory).
void DataFileReader::grow_deps(size_t extra) {
  auto& deps = d_.node.deps;
  deps.reserve(std::max(expected_deps(extra), deps.capacity() + deps.capacity() / 64));
  prefault(deps.data() + deps.size(), (deps.capacity() - deps.size()) * sizeof(uint32_t));
}

uint32_t DataFileReader::resolve_now(const Record& rec, const RawRef& ref, uint32_t ch) {
  if (ch == kNone || ch >= rings_.size()) return kNone;
  const RingSlot& s = rings_[ch][static_cast<uint32_t>(ref.opnum) & 7];
  if (s.idx == kNone || s.opnum != ref.opnum) return kNone;
  // A dependency on the wrong operation is left for resolve_dependencies() to report.
  if (s.op != op_dep_target(rec.op)) return kNone;
  return s.idx;
}

void DataFileReader::commit(ParsedRow& row) {
  Record& rec = row.rec;
  auto& recs = d_.node.records;
  auto& deps = d_.node.deps;
  if (recs.size() >= kDeferredDep) {
    error(Problem::kIo, "more than 2^31 records in one file: not supported");
    return;
  }
  const auto idx = static_cast<uint32_t>(recs.size());
  // The record's channel first: most dependencies are in it (same peer and key).
  uint32_t ch = kNone;
  if (rec.is_data()) {
    ch = d_.channels.get_or_add(rec.peer, rec.key);
    if (ch >= rings_.size()) rings_.resize(ch + 1);
  }
  rec.dep_begin = static_cast<uint32_t>(deps.size());
  if (deps.size() + row.nrefs > deps.capacity()) grow_deps(row.nrefs);
  for (size_t k = 0; k < row.nrefs; ++k) {
    const RawRef& ref = row.refs[k];
    const uint32_t t = resolve_now(
        rec, ref,
        ref.peer == rec.peer && ref.key == rec.key ? ch : d_.channels.find(ref.peer, ref.key));
    if (t != kNone) {
      deps.push_back(t);
    } else {
      deps.push_back(kDeferredDep | static_cast<uint32_t>(d_.refs.size()));
      d_.refs.push_back(ref);
    }
  }
  rec.message = kNone;
  if (rec.is_data()) {
    // The first record of a channel fixes its numbering offset (docs/trace-model.md).
    Channel& c = d_.channels[ch];
    const int off = numbering_offset(rec.opnum, rec.phase());
    if (c.offset < 0) c.offset = static_cast<int8_t>(off == 0 || off == 2 ? off : 2);
    if (off != c.offset) {
      if (diag_.wants(Problem::kAmbiguousOpnum)) {
        error(Problem::kAmbiguousOpnum,
              "field 'OP_ID': opnum " + std::to_string(rec.opnum) + " of " +
                  std::string(op_name(rec.op)) + " is not at position " +
                  std::to_string(static_cast<int>(rec.phase())) +
                  " of a group of four in its channel's numbering; iteration taken from the "
                  "channel's numbering");
      } else {
        diag_.count(Problem::kAmbiguousOpnum);
      }
    }
    rec.iteration = iteration_of(rec.opnum, rec.phase(), c.offset);
    if (c.count == 0) {
      c.known_sorted = true;
    } else if (c.known_sorted && rec.opnum <= c.last_opnum) {
      if (rec.opnum == c.last_opnum) {
        // A repeat right after its original: the channel stays sorted, report it here.
        rec.set_flag(Record::kDuplicateFlag, true);
        error(Problem::kRepeatedOpId,
              "OP_ID " + op_id_text(rec.key, rec.opnum, rec.peer, W_) +
                  " repeats an earlier record's; dependencies on it resolve to the first one");
      } else {
        c.known_sorted = false;  // build_index() sorts it and finds its repeats
      }
    }
    c.last_opnum = rec.opnum;
    ++c.count;
    rec.message = ch;
    // Keep the first of repeated opnums, as the index does.
    RingSlot& slot = rings_[ch][static_cast<uint32_t>(rec.opnum) & 7];
    if (slot.idx == kNone || slot.opnum < rec.opnum) slot = RingSlot{rec.opnum, idx, rec.op};
  }
  if (!rec.is_data()) d_.channels.add_setup(idx);
  check_order(row.id, rec.time_ns);
  recs.push_back(rec);
}

void DataFileReader::check_order_slow(int64_t id, int64_t time_ns) {
  if (id == prev_id_) {
    if (diag_.wants(Problem::kRepeatedId)) {
      error(Problem::kRepeatedId, "ID " + std::to_string(id) + " repeats the previous record's");
    } else {
      diag_.count(Problem::kRepeatedId);
    }
  } else if (id < prev_id_ || (time_ns != 0 && time_ns < prev_time_)) {
    if (diag_.wants(Problem::kOutOfOrder)) {
      error(Problem::kOutOfOrder,
            id < prev_id_ ? "ID " + std::to_string(id) + " after ID " + std::to_string(prev_id_)
                          : "time stamp earlier than the previous record's");
    } else {
      diag_.count(Problem::kOutOfOrder);
    }
  }
  prev_id_ = id;
  if (time_ns != 0) prev_time_ = time_ns;
}

bool read_sketch_data_file(const std::string& path, NodeDraft& draft, Diagnostics& diag,
                           LineReader* in) {
  draft.node.file = path;
  try {
    DataFileReader reader(path, draft, diag);
    return reader.run(in);
  } catch (const Error& e) {
    diag.add(Problem::kIo, path, 0, e.what());
    return false;
  }
}

}  // namespace dlcnet::trace
