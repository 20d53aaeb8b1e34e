#include "trace/trace_sketch_writer.hpp"

#include <filesystem>
#include <system_error>

#include "core/error.hpp"
#include "trace/trace_out.hpp"

namespace dlcnet::trace {
namespace {

namespace fs = std::filesystem;

// The capture's header block, byte for byte apart from the values.
void put_header(OutFile& out, const Job& job, const Node& node) {
  out.put(std::string(132, '=')).put('\n');
  out.put("==\t\t num_workers: = ").num(job.num_workers).put("     num_servers: = ");
  out.num(job.num_servers).put("     ").put(role_name(node.role)).put("_hostname:= ");
  out.put(node.hostname.empty() ? "dlcnet-" + node.name() : node.hostname);
  out.put("            \n==\t\t Worker_ID: = ");
  for (uint16_t w = 0; w < job.num_workers; ++w) out.num(w).put(',');
  out.put("\tServer_ID: =");
  for (uint16_t s = 0; s < job.num_servers; ++s) out.num(s).put(',');
  out.put(
      "\n==     Dep_PP:  odd: push_operation   even: pull_operation  -15: Initialize Server  0: "
      "setup messages\n"
      "==           |==  push_send_worker ----> push_recv_server\n"
      "==     push =|\n"
      "==           |==  push_recv_worker <---- push_send_server\n"
      "==           |==  pull_send_worker ----> pull_recv_server\n"
      "==     pull =|\n"
      "==           |==  pull_recv_worker <---- pull_send_server\n"
      "==\t OP_ID: key-operation_num-role  key: the index of parameters  role: (worker or "
      "server)\n"
      "              operation_num: the num of push or pull, every four num means an iteration "
      "(push_send, push_recv, pull_send, pull_recv)\n");
  out.put(std::string(133, '=')).put('\n');
  out.put(
      "ID\tsrc\tdst\tlength\t\tDep_PP\t\tOperation\t\tOP_ID\t\tdep_Type\t\tdTime\t\ttime_sec\t\t"
      "time_usec\t\tIDdep\n");
}

void put_peer(OutFile& out, const Job& job, uint16_t peer) {
  if (peer >= job.num_workers) {
    out.put('s').num(peer - job.num_workers);
  } else {
    out.put('w').num(peer);
  }
}

void put_op_id(OutFile& out, const Job& job, const Record& r, bool with_key) {
  if (with_key) out.num(r.key).put('-');
  out.num(r.opnum).put('-');
  put_peer(out, job, r.peer);
}

// IDdep in the forms the capture code writes (trace-and-output-formats section 1).
void put_iddep(OutFile& out, const Job& job, const Node& node, uint32_t i) {
  const Record& r = node.records[i];
  const auto deps = node.deps_of(i);
  if (deps.empty()) {
    out.put("-1");
    return;
  }
  auto dep = [&](size_t k) -> const Record& { return node.records[deps[k]]; };
  if (r.op == Op::kPushSendWorker) {
    // One entry per server, as the capture does; 0 for servers that do not hold the key.
    out.put('(');
    for (uint16_t s = 0; s < job.num_servers; ++s) {
      const auto rank = static_cast<uint16_t>(job.num_workers + s);
      const Record* hit = nullptr;
      for (size_t k = 0; k < deps.size(); ++k) {
        if (dep(k).peer == rank) hit = &dep(k);
      }
      if (hit != nullptr && hit->key != r.key) {
        put_op_id(out, job, *hit, true);
      } else {
        out.num(hit != nullptr ? hit->opnum : 0).put("-s").num(s);
      }
      out.put(',');
    }
    out.put(')');
    return;
  }
  if (r.op == Op::kPushRecvServer && deps.size() == 1 && dep(0).key == r.key) {
    put_op_id(out, job, dep(0), false);  // "opnum-wN": the capture omits the key here
    return;
  }
  if (deps.size() == 1 && !(r.op == Op::kPushSendServer && !r.is_init())) {
    put_op_id(out, job, dep(0), true);
    return;
  }
  out.put('(');
  for (size_t k = 0; k < deps.size(); ++k) {
    put_op_id(out, job, dep(k), true);
    out.put(", ");
  }
  out.put(')');
}

int64_t dep_pp(const Record& r) {
  if (!r.is_data()) return 0;
  if (r.is_init()) return -15;
  const bool push = r.phase() == Phase::kPushSend || r.phase() == Phase::kPushRecv;
  return 2 * static_cast<int64_t>(r.iteration) + (push ? 1 : 2);
}

int64_t floor_div(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

void make_dirs(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("cannot create directory " + dir.string() + ": " + ec.message());
}

}  // namespace

void write_sketch_data_file(const Job& job, const Node& node, const std::string& path) {
  OutFile out(path);
  put_header(out, job, node);
  for (uint32_t i = 0; i < node.records.size(); ++i) {
    const Record& r = node.records[i];
    const uint16_t src = r.is_send() ? node.rank : r.peer;
    const uint16_t dst = r.is_send() ? r.peer : node.rank;
    out.num(i).put('\t').num(src).put('\t').num(dst).put('\t').num(r.length).put("\t\t");
    out.num(dep_pp(r)).put("\t\tOP:= ");
    if (!r.is_data()) {
      // The capture spells it "TO" on a file's first record and "To" after it.
      const bool workers = r.op == Op::kCommandToWorkers;
      out.put(i == 0 ? (workers ? "SendCom_TO_Workers" : "SendCom_TO_Servers")
                     : (workers ? "SendCom_To_Workers" : "SendCom_To_Servers"));
      out.put('\n');
      continue;
    }
    out.put(op_name(r.op)).put("\t\t");
    put_op_id(out, job, r, true);
    out.put("\t\t").num(static_cast<int>(r.dep_type())).put("\t\t");
    out.num(r.dtime_ns / 1000).put("\t\t").num(floor_div(r.time_ns, 1'000'000'000));
    out.put("\t\t").num(floor_div(r.time_ns, 1000) -
                        floor_div(r.time_ns, 1'000'000'000) * 1'000'000);
    out.put("\t\t");
    put_iddep(out, job, node, i);
    out.put('\n');
  }
  out.close();
}

void write_sketch_sch_file(const Job& job, const Node& node, const std::string& path) {
  OutFile out(path);
  out.put("ID\tsrc\tdst\tlength\tDep\tdTime\tIDdep\tDep_PP\n");
  const uint16_t sched = job.scheduler_rank();
  for (uint32_t i = 0; i < node.control.size(); ++i) {
    const Record& r = node.control[i];
    const uint16_t self = node.role == Role::kScheduler ? sched : node.rank;
    const uint16_t other = node.role == Role::kScheduler ? r.peer : sched;
    out.num(i).put('\t').num(r.is_send() ? self : other).put('\t');
    out.num(r.is_send() ? other : self).put('\t').num(r.length).put('\t');
    out.num(i == 0 ? 0 : (r.is_send() ? 2 : 1)).put('\t').num(r.dtime_ns / 1000).put('\t');
    out.num(static_cast<int64_t>(i) - 1).put("\t0\t\tOP:= ").put(op_name(r.op)).put('\n');
  }
  out.close();
}

void write_sketch_job(const Job& job, const std::string& dir) {
  for (const Node& node : job.nodes) {
    if (!node.present && node.control.empty()) continue;
    const fs::path d = fs::path(dir) / node.name();
    make_dirs(d);
    if (node.present) write_sketch_data_file(job, node, (d / "trace_record.txt").string());
    if (!node.control.empty()) {
      write_sketch_sch_file(job, node, (d / "trace_sch_record.txt").string());
    }
  }
}

}  // namespace dlcnet::trace
