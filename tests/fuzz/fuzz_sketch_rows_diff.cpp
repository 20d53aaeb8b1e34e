// libFuzzer target, differential: the SketchDLC row parser's fast path (trace_sketch_fast.cpp,
// the loader's hot path) against its checked path (trace_sketch_rows.cpp) on the same row of a
// worker's and a server's file. Whatever the fast path accepts, the checked path must accept
// with the same record, ID and dependency references.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_sketch_reader.hpp"

namespace dlcnet::trace {

// The reader's private parsers, for this target only (a friend of DataFileReader).
struct RowProbe {
  static bool header(DataFileReader& r, std::string_view line) { return r.header_line(line); }
  static bool fast(DataFileReader& r, std::string_view l, ParsedRow& p) {
    return r.parse_fast(l, p);
  }
  static bool checked(DataFileReader& r, std::string_view l, ParsedRow& p) {
    return r.parse_checked(l, p);
  }
};

}  // namespace dlcnet::trace

namespace {

using namespace dlcnet::trace;

// The header blocks of tests/data/trace/basic's worker0 and server0 files, column line
// included: 2 workers, 1 server.
constexpr int kHeaderLines = 14;
constexpr const char* kWorkerHeader[kHeaderLines] = {
    "=============================================================================================="
    "======================================",
    "==\t\t num_workers: = 2     num_servers: = 1     worker_hostname:= host-w0            ",
    "==\t\t Worker_ID: = 0,1,\tServer_ID: =0,",
    "==     Dep_PP:  odd: push_operation   even: pull_operation  -15: Initialize Server  0: setup "
    "messages",
    "==           |==  push_send_worker ----> push_recv_server",
    "==     push =|",
    "==           |==  push_recv_worker <---- push_send_server",
    "==           |==  pull_send_worker ----> pull_recv_server",
    "==     pull =|",
    "==           |==  pull_recv_worker <---- pull_send_server",
    "==\t OP_ID: key-operation_num-role  key: the index of parameters  role: (worker or server)",
    "              operation_num: the num of push or pull, every four num means an iteration "
    "(push_send, push_recv, pull_send, pull_recv)",
    "=============================================================================================="
    "=======================================",
    "ID\tsrc\tdst\tlength\t\tDep_PP\t\tOperation\t\tOP_ID\t\tdep_Type\t\tdTime\t\ttime_sec\t\ttime_"
    "usec\t\tIDdep"};
constexpr const char* kServerHeader[kHeaderLines] = {
    "=============================================================================================="
    "======================================",
    "==\t\t num_workers: = 2     num_servers: = 1     server_hostname:= host-s0            ",
    "==\t\t Worker_ID: = 0,1,\tServer_ID: =0,",
    "==     Dep_PP:  odd: push_operation   even: pull_operation  -15: Initialize Server  0: setup "
    "messages",
    "==           |==  push_send_worker ----> push_recv_server",
    "==     push =|",
    "==           |==  push_recv_worker <---- push_send_server",
    "==           |==  pull_send_worker ----> pull_recv_server",
    "==     pull =|",
    "==           |==  pull_recv_worker <---- pull_send_server",
    "==\t OP_ID: key-operation_num-role  key: the index of parameters  role: (worker or server)",
    "              operation_num: the num of push or pull, every four num means an iteration "
    "(push_send, push_recv, pull_send, pull_recv)",
    "=============================================================================================="
    "=======================================",
    "ID\tsrc\tdst\tlength\t\tDep_PP\t\tOperation\t\tOP_ID\t\tdep_Type\t\tdTime\t\ttime_sec\t\ttime_"
    "usec\t\tIDdep"};

bool same(const ParsedRow& a, const ParsedRow& b) {
  const Record& x = a.rec;
  const Record& y = b.rec;
  if (a.id != b.id || a.nrefs != b.nrefs) return false;
  if (x.time_ns != y.time_ns || x.dtime_ns != y.dtime_ns || x.length != y.length ||
      x.key != y.key || x.opnum != y.opnum || x.peer != y.peer || x.op != y.op ||
      x.bits != y.bits) {
    return false;
  }
  for (size_t i = 0; i < a.nrefs; ++i) {
    const RawRef& p = a.refs[i];
    const RawRef& q = b.refs[i];
    if (p.key != q.key || p.opnum != q.opnum || p.peer != q.peer || p.list_entry != q.list_entry) {
      return false;
    }
  }
  return true;
}

void one_file(const char* const* header, std::string_view row) {
  NodeDraft draft;
  Diagnostics diag(4);
  const std::string path = "fuzz.txt";
  DataFileReader reader(path, draft, diag);
  for (int i = 0; i < kHeaderLines; ++i) {
    if (!RowProbe::header(reader, header[i])) __builtin_trap();  // the fixed header is good
  }
  // LineReader's guarantee to the fast path: a line end and padding after every line.
  std::vector<char> buf(row.size() + 1 + 64, '\0');
  std::memcpy(buf.data(), row.data(), row.size());
  buf[row.size()] = '\n';
  const std::string_view line(buf.data(), row.size());
  ParsedRow fast, checked;
  if (!RowProbe::fast(reader, line, fast)) return;
  if (!RowProbe::checked(reader, line, checked)) __builtin_trap();  // fast took a bad row
  if (!same(fast, checked)) __builtin_trap();                       // and read it otherwise
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view row(reinterpret_cast<const char*>(data), size);
  if (row.find('\n') != std::string_view::npos) return 0;  // one line
  if (row.size() > 4096) return 0;
  one_file(kWorkerHeader, row);
  one_file(kServerHeader, row);
  return 0;
}
