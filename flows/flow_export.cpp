#include "flows/flow_export.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "flows/hpcc_fct.hpp"
#include "flows/hpcc_flow.hpp"

namespace dlcnet {

FlowMap flow_map_of(std::span<const Flow> flows, std::span<const int32_t> groups,
                    const std::string& tool, const std::string& group_kind) {
  if (!groups.empty() && groups.size() != flows.size()) {
    throw Error("flow export: " + std::to_string(groups.size()) + " groups for " +
                std::to_string(flows.size()) + " flows");
  }
  FlowMap map;
  map.tool = tool;
  map.group_kind = group_kind;
  if (flows.empty()) return map;
  std::vector<size_t> order(flows.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return flows[a].start_ns < flows[b].start_ns; });
  map.origin_ns = flows[order.front()].start_ns;
  std::map<std::pair<int32_t, int32_t>, uint64_t> pair_flows;  // flows so far per pair
  map.flows.reserve(flows.size());
  for (size_t i : order) {
    const Flow& f = flows[i];
    if (f.src < 0 || f.dst < 0) throw Error("flow export: a message without a rank");
    MappedFlow m;
    m.flow = static_cast<uint32_t>(map.flows.size());
    m.src = static_cast<uint32_t>(f.src);
    m.dst = static_cast<uint32_t>(f.dst);
    m.sport = hpcc_sport(pair_flows[{f.src, f.dst}]++);
    m.size = f.bytes;
    m.start_ns = static_cast<uint64_t>(std::llround(std::max(0.0, f.start_ns - map.origin_ns)));
    m.latency_ns = f.fct_ns;
    m.bound_ns = f.bound_ns;
    m.group = groups.empty() ? -1 : groups[i];
    m.key = f.key;
    m.opnum = f.opnum;
    map.flows.push_back(m);
  }
  return map;
}

namespace {

// The flow map goes beside the flow list, as PATH.map. Beside a special file (/dev/null,
// /dev/stdout, a FIFO) that would create /dev/null.map and the like, which nobody asked for;
// and a flow list without its map cannot be compared. So --export-flows must name a regular
// file or a new one: anything else is refused before the run, not skipped.
const std::string& regular_or_new(const std::string& path) {
  struct stat st {};
  if (!path.empty() && ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    throw Error("--export-flows " + path +
                ": not a regular file: the flow map would be written "
                "beside it as " +
                flow_map_path(path) + "; give the path of a file");
  }
  return path;
}

}  // namespace

FlowExport::FlowExport(const std::string& path)
    : flows_(open_output("--export-flows", regular_or_new(path))),
      map_(path.empty() ? nullptr : open_output("--export-flows", flow_map_path(path))) {}

void FlowExport::write(const FlowMap& map) {
  if (!flows_) return;
  std::vector<HpccFlow> hpcc;
  hpcc.reserve(map.flows.size());
  for (const MappedFlow& m : map.flows) {
    HpccFlow h;
    h.src = m.src;
    h.dst = m.dst;
    h.size = m.size;
    h.start_s = static_cast<double>(m.start_ns) * 1e-9;
    hpcc.push_back(h);
  }
  write_each({[&] { write_stream(*flows_, [&](std::ostream& out) { write_flow_txt(out, hpcc); }); },
              [&] { write_stream(*map_, [&](std::ostream& out) { write_flow_map(out, map); }); }});
}

}  // namespace dlcnet
