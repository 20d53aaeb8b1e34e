// Writer of the native CSV format (docs/native-trace-format.md).
#include "trace/trace_native.hpp"
#include "trace/trace_out.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace {
namespace {

void put_node(OutFile& out, const Job& job, uint16_t rank) {
  if (rank < job.num_workers) {
    out.put('w').num(rank);
  } else {
    out.put('s').num(rank - job.num_workers);
  }
}

}  // namespace

void write_native(const Job& job, const std::string& path) {
  OutFile out(path);
  out.put(kNativeMagic).put(" workers=").num(job.num_workers).put(" servers=");
  out.num(job.num_servers).put('\n');
  out.put("node,id,op,peer,key,iteration,opnum,bytes,time_ns,dtime_ns,dep_type,deps\n");
  for (const Node& node : job.nodes) {
    if (!node.present) continue;
    for (uint32_t i = 0; i < node.records.size(); ++i) {
      const Record& r = node.records[i];
      put_node(out, job, node.rank);
      out.put(',').num(i).put(',').put(op_short_name(r.op));
      if (!r.is_data()) out.put(r.is_send() ? "_send" : "_recv");
      out.put(',');
      put_node(out, job, r.peer);
      out.put(',');
      if (r.is_data())
        out.num(r.key).put(',').num(r.iteration).put(',').num(r.opnum);
      else
        out.put(",,");
      out.put(',').num(r.length).put(',').num(r.time_ns).put(',').num(r.dtime_ns).put(',');
      out.num(static_cast<int>(r.dep_type())).put(',');
      bool first = true;
      for (uint32_t d : node.deps_of(i)) {
        if (!first) out.put(';');
        out.num(d);
        first = false;
      }
      out.put('\n');
    }
  }
  out.close();
}

}  // namespace dlcnet::trace
