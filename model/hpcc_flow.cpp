#include "model/hpcc_flow.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "core/error.hpp"
#include "model/line_fields.hpp"

namespace dlcnet::model {

std::vector<HpccFlow> read_flow_txt(std::istream& in, const std::string& file, size_t* ignored) {
  LineFields f(in, file);
  if (!f.next_line()) throw Error(file + ": empty: the first line must hold the flow count");
  const uint64_t count = f.whole("flow_count");
  f.expect_end("the flow count");
  std::vector<HpccFlow> flows;
  // The first line is a claim: at most 65 536 flows (2 MB) reserved on its word, the rest as
  // lines arrive (1 << 24 made a 13-byte file reserve 512 MB: fuzz_sim_formats).
  flows.reserve(std::min<uint64_t>(count, 1u << 16));
  while (flows.size() < count && f.next_line()) {
    HpccFlow x;
    x.src = f.whole32("src");
    x.dst = f.whole32("dst");
    x.pg = f.whole32("pg");
    x.dport = f.whole32("dport");
    x.size = f.whole("size");
    x.start_s = f.real("start_s");
    f.expect_end("src dst pg dport size start_s");
    if (x.start_s < 0) f.fail("start_s", "negative start");
    if (!flows.empty() && x.start_s < flows.back().start_s) {
      f.fail("start_s",
             "starts before the previous line's flow: HPCC reads flows in order of "
             "start time");
    }
    flows.push_back(x);
  }
  if (flows.size() != count) {
    throw Error(file + ": the first line says " + std::to_string(count) + " flows, the file has " +
                std::to_string(flows.size()));
  }
  if (ignored) {
    *ignored = 0;
    while (f.next_line()) ++*ignored;
  }
  return flows;
}

std::vector<HpccFlow> read_flow_txt(const std::string& path, size_t* ignored) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open the flow file");
  return read_flow_txt(in, path, ignored);
}

void write_flow_txt(std::ostream& out, std::span<const HpccFlow> flows) {
  std::vector<const HpccFlow*> order;
  order.reserve(flows.size());
  for (const HpccFlow& f : flows) order.push_back(&f);
  std::stable_sort(order.begin(), order.end(),
                   [](const HpccFlow* a, const HpccFlow* b) { return a->start_s < b->start_s; });
  out << flows.size() << '\n';
  char buf[128];
  for (const HpccFlow* f : order) {
    std::snprintf(buf, sizeof buf, "%u %u %u %u %llu %.9f\n", f->src, f->dst, f->pg, f->dport,
                  static_cast<unsigned long long>(f->size), f->start_s);
    out << buf;
  }
}

std::vector<Message> messages_from_flows(std::span<const HpccFlow> flows) {
  std::vector<Message> m(flows.size());
  for (size_t i = 0; i < flows.size(); ++i) {
    m[i].id = i;
    m[i].src = flows[i].src;
    m[i].dst = flows[i].dst;
    m[i].bytes = flows[i].size;
    m[i].start_s = flows[i].start_s;
  }
  return m;
}

}  // namespace dlcnet::model
