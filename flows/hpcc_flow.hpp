// HPCC's flow input (`flow.txt`, the FLOW_FILE of HPCC's, SimAI's and ASTRA-sim's ns-3): the
// number of flows on the first line, then one flow a line, sorted by start time:
//   src dst pg dport size start_s
// host ids, priority group, destination port, bytes, start in seconds (docs/model.md).
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace dlcnet {

struct HpccFlow {
  uint32_t src = 0, dst = 0;
  uint32_t pg = 3;       // HPCC's examples use priority group 3
  uint32_t dport = 100;  // HPCC's analysis: 100 background, 200 incast
  uint64_t size = 0;
  double start_s = 0;
};

// Reads the flows the first line counts, as HPCC's simulator does: lines after them are not
// read (HPCC's own example flow.txt says 2 and lists 258 flows and a note); `ignored`, when
// given, gets how many non-blank lines that left. Throws Error naming `file`, the line and the
// field on anything malformed among the counted flows: a field that is not a number, a missing
// or extra field, a start before the previous line's, fewer flows than the first line says.
std::vector<HpccFlow> read_flow_txt(std::istream& in, const std::string& file,
                                    size_t* ignored = nullptr);
std::vector<HpccFlow> read_flow_txt(const std::string& path, size_t* ignored = nullptr);

// Writes the count and the flows in order of start (stable); starts to the nanosecond.
void write_flow_txt(std::ostream& out, std::span<const HpccFlow> flows);

}  // namespace dlcnet
