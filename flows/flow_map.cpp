#include "flows/flow_map.hpp"

#include <cstdio>
#include <sstream>
#include <unordered_map>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/number.hpp"
#include "flows/hpcc_fct.hpp"
#include "flows/line_fields.hpp"

namespace dlcnet {
namespace {

constexpr const char* kColumns =
    "flow src dst sport size start_ns latency_ns bound_ns group key opnum";

// "# name value" lines: the value of `name`, or "" when absent.
std::string header_value(const std::vector<std::string>& comments, const std::string& name) {
  for (const std::string& c : comments) {
    std::istringstream in(c);
    std::string key;
    in >> key;
    if (key != name) continue;
    std::string value;
    std::getline(in >> std::ws, value);
    return value;
  }
  return {};
}

// The header is the file's first line: a refusal names that line, or says the file is empty.
void check_header(const std::vector<std::string>& comments, const std::string& file, bool empty) {
  const std::string v = header_value(comments, "dlcnet");
  if (v.rfind("flow map ", 0) != 0) {
    throw Error(file + (empty ? ": empty" : ":1") +
                ": not a dlcnet flow map (the first line must be \"# dlcnet flow map " +
                std::to_string(kFlowMapVersion) + "\")");
  }
  if (v != "flow map " + std::to_string(kFlowMapVersion)) {
    throw Error(file + ":1: \"" + v + "\": this dlc-compare reads version " +
                std::to_string(kFlowMapVersion));
  }
}

}  // namespace

void write_flow_map(std::ostream& out, const FlowMap& map) {
  out << "# dlcnet flow map " << kFlowMapVersion << '\n'
      << "# tool " << map.tool << '\n'
      << "# group " << (map.group_kind.empty() ? "none" : map.group_kind) << '\n';
  char buf[256];
  std::snprintf(buf, sizeof buf, "# origin_ns %.0f\n# %s\n", map.origin_ns, kColumns);
  out << buf;
  for (const MappedFlow& f : map.flows) {
    std::snprintf(buf, sizeof buf, "%u %u %u %u %llu %llu %.1f %.1f %d %d %d\n", f.flow, f.src,
                  f.dst, f.sport, static_cast<unsigned long long>(f.size),
                  static_cast<unsigned long long>(f.start_ns), f.latency_ns, f.bound_ns, f.group,
                  f.key, f.opnum);
    out << buf;
  }
}

FlowMap read_flow_map(std::istream& in, const std::string& file) {
  LineFields f(in, file, '#');
  FlowMap map;
  std::unordered_map<uint64_t, uint64_t> pair_flows;  // (src << 16) | dst: flows so far
  bool first = true;
  while (f.next_line()) {
    if (first) {
      check_header(f.comments(), file, false);
      map.tool = header_value(f.comments(), "tool");
      map.group_kind = header_value(f.comments(), "group");
      if (map.group_kind == "none") map.group_kind.clear();
      // A header field, checked as every number (nan, inf, trailing text were taken).
      const std::string origin = header_value(f.comments(), "origin_ns");
      if (!origin.empty()) {
        map.origin_ns = parse_real(origin, file + ": field origin_ns (the header's)", -1e19, 1e19);
      }
      first = false;
    }
    MappedFlow m;
    m.line = static_cast<uint32_t>(f.line_number());
    m.flow = f.whole32("flow");
    if (m.flow != map.flows.size()) {
      f.fail("flow", "is " + std::to_string(m.flow) + ", expected " +
                         std::to_string(map.flows.size()) +
                         " (one line per flow.txt line, in order)");
    }
    m.src = f.whole32("src");
    m.dst = f.whole32("dst");
    for (auto [v, name] : {std::pair{m.src, "src"}, {m.dst, "dst"}}) {
      if (v > 0xffffu) f.fail(name, std::to_string(v) + " is not a 16-bit node id (HPCC's)");
    }
    m.sport = f.whole32("sport");
    // HPCC numbers each pair's flows from port 10000 in their order, in 16 bits
    // (flows/hpcc_fct.hpp): a port off that count is a line changed or lost, which a join with
    // the simulator's fct.txt could not place.
    const uint64_t nth = pair_flows[(uint64_t{m.src} << 16) | m.dst]++;
    if (m.sport != hpcc_sport(nth)) {
      f.fail("sport", std::to_string(m.sport) + ", expected " + std::to_string(hpcc_sport(nth)) +
                          " for flow " + std::to_string(nth + 1) + " from " +
                          std::to_string(m.src) + " to " + std::to_string(m.dst) +
                          " (HPCC numbers each pair's flows from 10000, in 16 bits)");
    }
    m.size = f.whole("size");
    m.start_ns = f.whole("start_ns");
    m.latency_ns = f.real("latency_ns");
    m.bound_ns = f.real("bound_ns");
    const int64_t g = f.integer("group"), k = f.integer("key"), o = f.integer("opnum");
    for (auto [v, name] : {std::pair{g, "group"}, {k, "key"}, {o, "opnum"}}) {
      if (v < INT32_MIN || v > INT32_MAX) f.fail(name, std::to_string(v) + " is out of range");
    }
    m.group = static_cast<int32_t>(g);
    m.key = static_cast<int32_t>(k);
    m.opnum = static_cast<int32_t>(o);
    f.expect_end(kColumns);
    if (!map.flows.empty() && m.start_ns < map.flows.back().start_ns) {
      f.fail("start_ns", "before the previous line's: flows are in order of start");
    }
    map.flows.push_back(m);
  }
  if (first) check_header(f.comments(), file, f.comments().empty());
  return map;
}

FlowMap read_flow_map(const std::string& path) {
  return read_input(path, "the flow map",
                    [&](std::istream& in) { return read_flow_map(in, path); });
}

}  // namespace dlcnet
