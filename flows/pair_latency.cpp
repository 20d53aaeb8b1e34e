#include "flows/pair_latency.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace dlcnet {

std::vector<PairLatency> pair_latencies(std::span<const Flow> flows, uint64_t* duplicates) {
  // Each message once: (src, dst, key, opnum) names it on both ends.
  std::set<std::tuple<int32_t, int32_t, int32_t, int32_t>> seen;
  std::map<std::pair<int32_t, int32_t>, std::vector<double>> by_pair;
  std::map<std::pair<int32_t, int32_t>, PairLatency> pairs;
  for (const Flow& f : flows) {
    if (!seen.emplace(f.src, f.dst, f.key, f.opnum).second && duplicates) ++*duplicates;
    by_pair[{f.src, f.dst}].push_back(f.fct_ns * 1e-9);
    PairLatency& p = pairs[{f.src, f.dst}];
    p.src = f.src;
    p.dst = f.dst;
    ++p.messages;
    p.bytes += f.bytes;
    p.bound_s = std::max(p.bound_s, f.bound_ns * 1e-9);
  }
  std::vector<PairLatency> out;
  for (auto& [k, p] : pairs) {
    p.one_way_s = summarize_latency(by_pair[k]);
    out.push_back(p);
  }
  return out;
}

}  // namespace dlcnet
