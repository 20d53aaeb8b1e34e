// Reader of the native CSV format's version 2 (docs/native-trace-format.md) into a Chakra job.
#include <array>
#include <optional>
#include <vector>

#include "core/error.hpp"
#include "trace/chakra/chakra_groups.hpp"
#include "trace/chakra/chakra_native.hpp"
#include "trace/trace_csv.hpp"
#include "trace/trace_native.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace::chakra {
namespace {

enum Col : uint8_t {
  kRank,
  kId,
  kType,
  kPeer,
  kTag,
  kBytes,
  kColl,
  kPg,
  kStart,
  kDuration,
  kDeps,
  kDataDeps,
  kName,
  kInputs,
  kNumCols
};
constexpr std::array<std::string_view, kNumCols> kColNames{
    "rank", "id",       "type",        "peer", "tag",       "bytes", "collective",
    "pg",   "start_ns", "duration_ns", "deps", "data_deps", "name",  "inputs"};

constexpr std::string_view kForm = "# dlcnet-trace 2 ranks=N";

int hex(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

template <typename T, size_t N>
std::optional<T> by_native_name(std::string_view s) {
  for (size_t i = 0; i < N; ++i) {
    if (native_name(static_cast<T>(i)) == s) return static_cast<T>(i);
  }
  return std::nullopt;
}

// Reads one file; `owner[r]`: the index in `files` of the file that holds rank r's lines.
class FileReader {
 public:
  FileReader(const std::string& path, size_t file_no, Job& job, std::vector<int>& owner,
             Diagnostics& diag)
      : path_(path), file_no_(static_cast<int>(file_no)), job_(job), owner_(owner), diag_(diag) {}
  void run();

 private:
  void error(Problem p, std::string msg) {
    if (diag_.wants(p)) {
      diag_.add(p, path_, line_, std::move(msg));
    } else {
      diag_.count(p);
    }
  }
  std::string_view f(Col c) const noexcept { return cols_.field(fields_, c); }
  bool header(std::string_view line);
  bool columns(std::string_view line);
  void row(std::string_view line);
  bool bad(Col c, const std::string& expected);
  bool only_for(Col c, const char* who);
  template <typename T>
  bool number(Col c, T& out, const char* expected);
  bool text(Col c, std::string& out);

  const std::string& path_;
  int file_no_;
  Job& job_;
  std::vector<int>& owner_;
  Diagnostics& diag_;
  uint32_t line_ = 0;
  CsvColumns cols_{kColNames};
  std::vector<std::string_view> fields_;
  // A row's texts and lists before they go to its rank's store.
  std::string pg_, name_;
  std::vector<uint64_t> ctrl_, data_;
};

bool FileReader::bad(Col c, const std::string& expected) {
  const std::string_view v = f(c);
  error(v.empty() ? Problem::kMissingField : Problem::kBadNumber,
        "field '" + std::string(kColNames[c]) + "': expected " + expected + ", found '" +
            excerpt(v) + "'");
  return false;
}

// A column that only some types use must be empty on the others.
bool FileReader::only_for(Col c, const char* who) {
  const std::string_view v = f(c);
  if (v.empty()) return true;
  error(Problem::kBadNumber, "field '" + std::string(kColNames[c]) + "': only " + who +
                                 " has one: leave it empty (found '" + excerpt(v) + "')");
  return false;
}

template <typename T>
bool FileReader::number(Col c, T& out, const char* expected) {
  const std::string_view v = f(c);
  return v.empty() || parse_int(v, out) || bad(c, expected);
}

bool FileReader::text(Col c, std::string& out) {
  return percent_decode(f(c), out) ||
         bad(c, "text with '%' only before two hexadecimal digits (%2C for a comma)");
}

bool FileReader::header(std::string_view line) {
  const NativeMagic m = read_native_magic(line, kForm);
  if (m.version != kNativeAnyRankVersion) {
    error(m.version == 0 ? m.problem : Problem::kInconsistentJob,
          m.version == 0 ? m.error
                         : "native format version " + std::to_string(m.version) +
                               " beside version 2 files: a job is one version (the first line "
                               "must be '" +
                               std::string(kForm) + "')");
    return false;
  }
  Tokenizer t(m.rest);
  std::string_view tok;
  int32_t ranks = 0;
  while (t.next(tok)) {
    if (tok.starts_with("ranks=") && !parse_int(tok.substr(6), ranks)) ranks = 0;
  }
  if (ranks < 1 || ranks > kNativeMaxRanks) {
    error(Problem::kBadHeader, "field 'ranks': the first line must be '" + std::string(kForm) +
                                   "' with N from 1 to " + std::to_string(kNativeMaxRanks));
    return false;
  }
  if (job_.world == 0) {
    job_.world = ranks;
    owner_.assign(static_cast<size_t>(ranks), -1);
  } else if (ranks != job_.world) {
    error(Problem::kInconsistentJob, "field 'ranks': " + std::to_string(ranks) +
                                         ", but the job's first file says " +
                                         std::to_string(job_.world));
    return false;
  }
  return true;
}

bool FileReader::columns(std::string_view line) {
  if (std::string dup = cols_.read(line); !dup.empty()) {
    error(Problem::kBadHeader, std::move(dup));
    return false;
  }
  for (Col c : {kRank, kId, kType}) {
    if (!cols_.has(c)) {
      error(Problem::kBadHeader, "column line has no '" + std::string(kColNames[c]) +
                                     "' column (required: rank, id, type)");
      return false;
    }
  }
  return true;
}

void FileReader::row(std::string_view line) {
  split_fields(line, fields_);
  int32_t rank = -1;
  if (!parse_int(f(kRank), rank) || rank < 0 || rank >= job_.world) {
    bad(kRank, "a rank of this job (0 to " + std::to_string(job_.world - 1) + ")");
    return;
  }
  Node n;
  n.line = line_;
  if (!parse_int(f(kId), n.id)) {
    bad(kId, "an id (0 to 2^64-1)");
    return;
  }
  const auto type = by_native_name<NodeType, kNumNodeTypes>(f(kType));
  if (!type || *type == NodeType::kInvalid) {
    error(Problem::kUnknownOperation,
          "field 'type': unknown node type '" + excerpt(f(kType)) +
              "' (send, recv, coll, comp, metadata, mem_load, mem_store, storage, batch, "
              "checkpoint)");
    return;
  }
  n.type = *type;
  const bool p2p = n.type == NodeType::kCommSend || n.type == NodeType::kCommRecv;
  const bool coll = n.type == NodeType::kCommColl;
  bool ok = true;
  if (p2p) {
    int32_t& peer = n.type == NodeType::kCommSend ? n.dst : n.src;
    (n.type == NodeType::kCommSend ? n.src : n.dst) = rank;
    ok = (parse_int(f(kPeer), peer) || bad(kPeer, "the other rank")) &&
         number(kTag, n.tag, "an integer tag (-2^63 to 2^63-1)");
  } else {
    ok = only_for(kPeer, "a send or recv") && only_for(kTag, "a send or recv");
  }
  if (ok && coll) {
    const auto c = by_native_name<Collective, kNumCollectives>(f(kColl));
    if (!c) {
      error(Problem::kUnknownOperation,
            "field 'collective': unknown collective '" + excerpt(f(kColl)) +
                "' (all_reduce, reduce, all_gather, gather, scatter, broadcast, all_to_all, "
                "reduce_scatter, reduce_scatter_block, barrier)");
      return;
    }
    n.collective = *c;
    ok = text(kPg, pg_);
  } else if (ok) {
    ok = only_for(kColl, "a coll") && only_for(kPg, "a coll");
  }
  if (!ok) return;
  if (p2p || coll) {
    const bool optional = coll && n.collective == Collective::kBarrier;
    const std::string_view bytes = f(kBytes);
    if ((!optional || !bytes.empty()) && !parse_int(bytes, n.size)) {
      bad(kBytes, "a byte count (0 to 2^64-1)");
      return;
    }
  } else if (!only_for(kBytes, "a send, recv or coll")) {
    return;
  }
  uint64_t start_ns = 0, duration_ns = 0;
  if (!number(kStart, start_ns, "nanoseconds (0 to 2^64-1)") ||
      !number(kDuration, duration_ns, "nanoseconds (0 to 2^64-1)")) {
    return;
  }
  n.start_us = ns_to_us(start_ns);
  n.duration_us = ns_to_us(duration_ns);
  ctrl_.clear();
  data_.clear();
  if (!parse_id_list(f(kDeps), ctrl_)) {
    bad(kDeps, "ids of nodes of the same rank separated by ';'");
    return;
  }
  if (!parse_id_list(f(kDataDeps), data_)) {
    bad(kDataDeps, "ids of nodes of the same rank separated by ';'");
    return;
  }
  if (!text(kName, name_)) return;
  // A metadata node's inputs: a process-group definition's JSON (chakra_groups.hpp); kept, as
  // the ET reader keeps them, only for a node named as one.
  std::string inputs;
  if (n.type == NodeType::kMetadata ? !text(kInputs, inputs) : !only_for(kInputs, "a metadata")) {
    return;
  }
  int& owner = owner_[static_cast<size_t>(rank)];
  Rank& r = job_.ranks[static_cast<size_t>(rank)];
  if (owner >= 0 && owner != file_no_) {
    error(Problem::kInconsistentJob, "field 'rank': rank " + std::to_string(rank) + " is also in " +
                                         r.file + ": each rank's lines are in one file");
    return;
  }
  owner = file_no_;
  r.file = path_;
  n.index = static_cast<uint32_t>(r.nodes.size());
  r.store.set_name(n, name_);
  r.store.set_deps(n, ctrl_, data_);
  if (coll) r.store.set_pg_name(n, pg_);
  if (!inputs.empty() && is_group_definition(name_)) {
    r.group_definitions.push_back({n.index, std::move(inputs)});
  }
  r.nodes.push_back(std::move(n));
}

void FileReader::run() {
  try {
    LineReader in(path_);
    std::string_view line;
    int state = 0;  // 0 magic, 1 columns, 2 rows
    while (in.next(line)) {
      line_ = in.line_number();
      if (state == 0) {
        if (!header(line)) return;
        if (job_.ranks.empty()) {
          job_.ranks.resize(static_cast<size_t>(job_.world));
          for (int32_t r = 0; r < job_.world; ++r) {
            job_.ranks[static_cast<size_t>(r)].rank = r;
            job_.ranks[static_cast<size_t>(r)].file = path_;
          }
        }
        state = 1;
        continue;
      }
      if (Tokenizer(line).rest().empty() || line.front() == '#') continue;
      if (state == 1) {
        if (!columns(line)) return;
        state = 2;
        continue;
      }
      row(line);
    }
    if (state < 2) {
      line_ = 0;
      error(Problem::kBadHeader, "file ends before the column line");
    }
  } catch (const Error& e) {
    line_ = 0;
    error(Problem::kIo, e.what());
  }
}

}  // namespace

bool percent_decode(std::string_view s, std::string& out) {
  out.clear();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size()) return false;
    const int hi = hex(s[i + 1]);
    const int lo = hex(s[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return true;
}

void read_native_job(std::span<const std::string> files, Job& job, Diagnostics& diag) {
  std::vector<int> owner;
  for (size_t i = 0; i < files.size(); ++i) FileReader(files[i], i, job, owner, diag).run();
}

}  // namespace dlcnet::trace::chakra
