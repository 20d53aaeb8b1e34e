#include "compare/fct_join.hpp"

#include <cmath>
#include <cstdlib>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace dlcnet::compare {
namespace {

// fct.txt's start and the map's agree to the nanosecond (both rounded from the same time);
// unsigned, as both are: any value of either is compared without overflow.
bool same_start(uint64_t a, uint64_t b) {
  return (a > b ? a - b : b - a) <= 1;
}

uint64_t flow_key(uint32_t src, uint32_t dst, uint32_t sport) {
  return (static_cast<uint64_t>(src & 0xffffu) << 48) |
         (static_cast<uint64_t>(dst & 0xffffu) << 32) | sport;
}

}  // namespace

Join join_fct(const FlowMap& map, const std::string& map_file, std::span<const FctRecord> fct,
              const std::string& fct_file, double ack_ns, bool free_starts) {
  // The flows of each (src, dst, sport), in the map's order: one, unless a pair has more than
  // 65536 flows and HPCC's 16-bit ports came round (flows/hpcc_fct.hpp); then the record's
  // start tells them apart (with free starts: the first not yet predicted).
  if (fct.size() > map.flows.size()) {  // the map cut short, or another job's fct.txt
    throw Error(fct_file + ": " + std::to_string(fct.size()) + " flows, more than the flow map " +
                map_file + " holds (" + std::to_string(map.flows.size()) +
                "): is this the fct.txt of that flow.txt?");
  }
  // by_key: a key's first flow in the map; same_key: the next flow with the same key (none: -1).
  std::unordered_map<uint64_t, uint32_t> by_key;
  by_key.reserve(map.flows.size());
  std::vector<uint32_t> same_key(map.flows.size(), UINT32_MAX);
  for (size_t i = map.flows.size(); i-- > 0;) {
    const MappedFlow& m = map.flows[i];
    const auto [it, fresh] = by_key.try_emplace(flow_key(m.src, m.dst, m.sport), m.flow);
    if (!fresh) same_key[m.flow] = std::exchange(it->second, m.flow);
  }
  std::vector<int64_t> predicted(map.flows.size(), -1);
  std::vector<uint64_t> predicted_start(map.flows.size(), 0);
  for (const FctRecord& r : fct) {
    const auto where = [&] { return fct_file + ":" + std::to_string(r.line) + ": "; };
    const auto it = by_key.find(flow_key(r.src(), r.dst(), r.sport));
    if (it == by_key.end()) {
      throw Error(where() + "no flow " + std::to_string(r.src()) + " -> " +
                  std::to_string(r.dst()) + " with sport " + std::to_string(r.sport) +
                  " in the flow map " + map_file + " (" + std::to_string(map.flows.size()) +
                  " flows): is this the fct.txt of that flow.txt?");
    }
    uint32_t pick = it->second;
    for (uint32_t c = it->second; c != UINT32_MAX; c = same_key[c]) {
      const MappedFlow& x = map.flows[c];
      const bool starts = free_starts || same_start(r.start_ns, x.start_ns);
      if (starts && predicted[c] < 0) {
        pick = c;
        break;
      }
    }
    const MappedFlow& m = map.flows[pick];
    // The map's line too: either file may be the one that is wrong.
    const auto flow = [&] {
      return "flow " + std::to_string(m.flow) + " of the flow map (" + map_file +
             (m.line ? ":" + std::to_string(m.line) : std::string()) + ")";
    };
    if (r.size != m.size) {
      throw Error(where() + "field size: " + std::to_string(r.size) + " bytes, " + flow() +
                  " has " + std::to_string(m.size));
    }
    if (!free_starts && !same_start(r.start_ns, m.start_ns)) {
      throw Error(where() + "field start_ns: " + std::to_string(r.start_ns) + ", " + flow() +
                  " starts at " + std::to_string(m.start_ns));
    }
    if (predicted[m.flow] >= 0) {
      throw Error(where() + "flow " + std::to_string(m.flow) + " (sport " +
                  std::to_string(r.sport) + ") is predicted twice");
    }
    predicted[m.flow] = static_cast<int64_t>(r.fct_ns);
    predicted_start[m.flow] = r.start_ns;
  }
  Join j;
  for (const MappedFlow& m : map.flows) {
    if (predicted[m.flow] < 0) {
      j.unpredicted.push_back(m.flow);
      continue;
    }
    if (!(m.latency_ns > 0)) {
      j.unmeasurable.push_back(m.flow);
      continue;
    }
    Matched x;
    x.src = m.src;
    x.dst = m.dst;
    x.sport = m.sport;
    x.bytes = m.size;
    x.start_ns = static_cast<double>(m.start_ns);
    x.predicted_start_ns = free_starts ? static_cast<double>(predicted_start[m.flow]) : x.start_ns;
    x.measured_ns = m.latency_ns + ack_ns;
    x.predicted_ns = static_cast<double>(predicted[m.flow]);
    x.ack_ns = ack_ns;
    x.group = m.group;
    x.key = m.key;
    x.opnum = m.opnum;
    j.matched.push_back(x);
  }
  return j;
}

}  // namespace dlcnet::compare
