// The mapping file written beside an exported HPCC flow.txt (FILE.map): for every line of
// flow.txt, the dlcnet message behind it and what was measured of it. It is the measured side
// of `dlc-compare MEASURED PREDICTED` (docs/compare.md):
//   # dlcnet flow map 1
//   # tool dlc-bench fanin
//   # group round
//   # origin_ns 1234567890
//   # flow src dst sport size start_ns latency_ns bound_ns group key opnum
//   0 1 0 10000 65536 0 812345.5 1200 0 0 0
// flow: the line of flow.txt (0 = the first after the count); src, dst: node ids (ranks);
// sport: HPCC's per-pair port (10000 + the flow's position among the pair's flows); start_ns:
// from the origin (rank 0's clock), as flow.txt's start_s; latency_ns: measured arrival minus
// start, on rank 0's clock, within +-bound_ns; group: the round, iteration or size the message
// belongs to (-1: none); key, opnum: the tool's own name of the message (its records').
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace dlcnet {

struct MappedFlow {
  uint32_t flow = 0, src = 0, dst = 0, sport = 0;
  uint64_t size = 0;
  uint64_t start_ns = 0;
  double latency_ns = 0, bound_ns = 0;
  int32_t group = -1, key = -1, opnum = 0;
  uint32_t line = 0;  // the map file's line it was read from (0: made in memory)
};

struct FlowMap {
  std::string tool;               // what measured it: "dlc-bench fanin", "dlc-replay", ...
  std::string group_kind;         // what a group is: "round", "iteration", "size", "" (none)
  double origin_ns = 0;           // start_ns 0, on rank 0's clock
  std::vector<MappedFlow> flows;  // in flow.txt's order
};

inline constexpr int kFlowMapVersion = 1;

void write_flow_map(std::ostream& out, const FlowMap& map);
// Throws Error naming `file`, the line and the field on anything malformed, an unknown
// version, or flows out of order.
FlowMap read_flow_map(std::istream& in, const std::string& file);
FlowMap read_flow_map(const std::string& path);

}  // namespace dlcnet
