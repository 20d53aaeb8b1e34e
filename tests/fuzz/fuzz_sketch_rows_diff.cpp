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
  static void read_row(DataFileReader& r, std::string_view l, ParsedRow& p) {
    p.nrefs = 0;
    if (r.parse_fast(l, p) || r.parse_checked(l, p)) r.commit(p);
  }
};

}  // namespace dlcnet::trace

namespace {

using namespace dlcnet::trace;

// The header blocks of tests/data/trace/basic's worker0 and server0 files, column line
// included: 2 workers, 1 server.
constexpr int kHeaderLines = 14;
// A capture's header; its second line names the node (kWorkerLine, kServerLine).
constexpr const char* kHeader[kHeaderLines] = {
    "=============================================================================================="
    "======================================",
    "",
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
constexpr const char* kWorkerLine =
    "==\t\t num_workers: = 2     num_servers: = 1     worker_hostname:= host-w0            ";
constexpr const char* kServerLine =
    "==\t\t num_workers: = 2     num_servers: = 1     server_hostname:= host-s0            ";

// Their first rows: read as the reader reads them (identifying the node, as the fast path
// needs), before the row under test.
constexpr int kFirstRows = 4;
constexpr const char* kWorkerRows[kFirstRows] = {
    "0\t0\t2\t48\t\t0\t\tOP:= SendCom_TO_Servers", "1\t2\t0\t40\t\t0\t\tOP:= SendCom_To_Servers",
    "2\t0\t2\t4060\t\t-15\t\tOP:= Push_Send_Worker\t\t0-0-s0\t\t0\t\t0\t\t1500000000\t\t2000\t\t-1",
    "3\t0\t2\t140\t\t-15\t\tOP:= Push_Send_Worker\t\t1-0-s0\t\t0\t\t0\t\t1500000000\t\t2003\t\t-1"};
constexpr const char* kServerRows[kFirstRows] = {
    "0\t0\t2\t48\t\t0\t\tOP:= SendCom_TO_Workers", "1\t2\t0\t40\t\t0\t\tOP:= SendCom_To_Workers",
    "2\t0\t2\t140\t\t-15\t\tOP:= "
    "Push_Recv_Server\t\t1--2-w0\t\t0\t\t0\t\t1499999998\t\t802018\t\t-1",
    "3\t0\t2\t4060\t\t-15\t\tOP:= "
    "Push_Recv_Server\t\t0--2-w0\t\t0\t\t0\t\t1499999998\t\t802019\t\t-1"};

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

// `text` followed by LineReader's guarantee to the fast path: a line end and padding.
std::string_view padded(std::vector<char>& buf, std::string_view text) {
  buf.assign(text.size() + 1 + 64, '\0');
  std::memcpy(buf.data(), text.data(), text.size());
  buf[text.size()] = '\n';
  return std::string_view(buf.data(), text.size());
}

void one_file(const char* node_line, const char* const* first, std::string_view row) {
  NodeDraft draft;
  Diagnostics diag(4);
  const std::string path = "fuzz.txt";
  DataFileReader reader(path, draft, diag);
  for (int i = 0; i < kHeaderLines; ++i) {
    const char* line = i == 1 ? node_line : kHeader[i];
    if (!RowProbe::header(reader, line)) __builtin_trap();  // the fixed header is good
  }
  std::vector<char> buf;
  ParsedRow seen;
  for (int i = 0; i < kFirstRows; ++i) RowProbe::read_row(reader, padded(buf, first[i]), seen);
  const std::string_view line = padded(buf, row);
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
  one_file(kWorkerLine, kWorkerRows, row);
  one_file(kServerLine, kServerRows, row);
  return 0;
}
