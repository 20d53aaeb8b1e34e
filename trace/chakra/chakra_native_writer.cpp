// Writer of the native CSV format's version 2 (docs/native-trace-format.md) from a Chakra job.
#include "core/error.hpp"
#include "trace/chakra/chakra_native.hpp"
#include "trace/trace_native.hpp"
#include "trace/trace_out.hpp"

namespace dlcnet::trace::chakra {
namespace {

void put_u64(OutFile& out, uint64_t v) {
  char tmp[24];
  const auto res = std::to_chars(tmp, tmp + sizeof tmp, v);
  out.put(std::string_view(tmp, static_cast<size_t>(res.ptr - tmp)));
}

void put_ids(OutFile& out, std::span<const uint64_t> ids) {
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i != 0) out.put(';');
    put_u64(out, ids[i]);
  }
}

// Microseconds as nanoseconds; an Error naming the node past 2^64-1 ns.
void put_us(OutFile& out, const Rank& r, const Node& n, uint64_t us, const char* field) {
  uint64_t ns = 0;
  if (__builtin_mul_overflow(us, uint64_t{1000}, &ns)) {
    throw Error(where(r, n) + ": field '" + field + "': " + std::to_string(us) +
                " us is past 2^64-1 ns: it cannot be written in nanoseconds");
  }
  put_u64(out, ns);
}

// `inputs`: the node's process-group definition (its metadata inputs), empty for none.
void put_node(OutFile& out, const Rank& r, const Node& n, std::string_view inputs) {
  out.num(r.rank).put(',');
  put_u64(out, n.id);
  out.put(',').put(native_name(n.type)).put(',');
  const bool send = n.type == NodeType::kCommSend;
  if (send || n.type == NodeType::kCommRecv) {
    out.num(send ? n.dst : n.src).put(',').num(n.tag).put(',');
    put_u64(out, n.size);
    out.put(",,,");
  } else if (n.type == NodeType::kCommColl) {
    out.put(",,");
    put_u64(out, n.size);
    out.put(',').put(native_name(n.collective)).put(',').put(percent_encode(n.pg_name()));
    out.put(',');
  } else {
    out.put(",,,,,");
  }
  put_us(out, r, n, n.start_us, "start_time_micros");
  out.put(',');
  put_us(out, r, n, n.duration_us, "duration_micros");
  out.put(',');
  put_ids(out, n.ctrl_deps());
  out.put(',');
  put_ids(out, n.data_deps());
  out.put(',').put(percent_encode(n.name())).put(',').put(percent_encode(inputs)).put('\n');
}

}  // namespace

std::string percent_encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const bool edge_space = c == ' ' && (i == 0 || i + 1 == s.size());
    if (c < 0x20 || c == 0x7F || c == ',' || c == '%' || c == '#' || edge_space) {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

void write_native_job(const Job& job, const std::string& path) {
  OutFile out(path);
  out.put(kNativePrefix).num(kNativeAnyRankVersion).put(" ranks=").num(job.world).put('\n');
  out.put(
      "rank,id,type,peer,tag,bytes,collective,pg,start_ns,duration_ns,deps,data_deps,name,"
      "inputs\n");
  for (const Rank& r : job.ranks) {
    auto group = r.group_definitions.begin();  // in node order
    for (size_t i = 0; i < r.nodes.size(); ++i) {
      std::string_view inputs;
      if (group != r.group_definitions.end() && group->node == i) {
        inputs = group->values;
        ++group;
      }
      put_node(out, r, r.nodes[i], inputs);
    }
  }
  out.close();
}

}  // namespace dlcnet::trace::chakra
