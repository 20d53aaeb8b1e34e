#include "flows/hpcc_flow.hpp"

#include <algorithm>
#include <cstdio>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "flows/line_fields.hpp"

namespace dlcnet {
namespace {

// HPCC's addresses (11.x.y.1, flows/hpcc_fct.hpp) hold 16 bits of node id: a host past 65535 could
// not be named in fct.txt, and a host id sizes the model's links (it made 2^31 allocate 11 GB).
constexpr uint32_t kMaxHost = 65535;
// Starts within about 31 years and sizes within 8 PiB (2^53, exact as the model's doubles):
// fct.txt's nanoseconds (64 bits) then hold every time the model derives from them.
constexpr double kMaxStartS = 1e9;
constexpr uint64_t kMaxSize = uint64_t{1} << 53;

uint32_t host(LineFields& f, const char* name) {
  const uint32_t h = f.whole32(name);
  if (h > kMaxHost) {
    f.fail(name, std::to_string(h) + " is past " + std::to_string(kMaxHost) +
                     ", the last host HPCC's addresses (11.x.y.1) can name");
  }
  return h;
}

}  // namespace

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
    x.src = host(f, "src");
    x.dst = host(f, "dst");
    x.pg = f.whole32("pg");
    x.dport = f.whole32("dport");
    x.size = f.whole("size");
    x.start_s = f.real("start_s");
    f.expect_end("src dst pg dport size start_s");
    if (x.start_s < 0) f.fail("start_s", "negative start");
    if (x.start_s > kMaxStartS) {
      char text[32];
      std::snprintf(text, sizeof text, "%g", x.start_s);
      f.fail("start_s", std::string(text) +
                            " s is past 1e9 s (31 years), the range fct.txt's nanoseconds hold");
    }
    if (x.size > kMaxSize) {
      f.fail("size", std::to_string(x.size) + " is past 2^53 bytes (8 PiB)");
    }
    if (!flows.empty() && x.start_s < flows.back().start_s) {
      f.fail("start_s",
             "starts before the previous line's flow: HPCC reads flows in order of "
             "start time");
    }
    flows.push_back(x);
  }
  if (flows.size() != count) {
    throw Error(file + ":1: the first line says " + std::to_string(count) +
                " flows, the file has " + std::to_string(flows.size()));
  }
  if (ignored) {
    *ignored = 0;
    while (f.next_line()) ++*ignored;
  }
  return flows;
}

std::vector<HpccFlow> read_flow_txt(const std::string& path, size_t* ignored) {
  return read_input(path, "the flow file",
                    [&](std::istream& in) { return read_flow_txt(in, path, ignored); });
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

}  // namespace dlcnet
