#include "replay/flow_iterations.hpp"

#include <map>
#include <tuple>

namespace dlcnet::replay {

std::vector<int32_t> flow_iterations(std::span<const Flow> flows, const trace::Job& job,
                                     const RankMap& map, const PlanOptions& options,
                                     const Copies& copies) {
  using Key = std::tuple<int32_t, int32_t, int32_t, int32_t>;  // src, dst, key, opnum
  std::map<Key, int32_t> iteration;
  for (int r = 0; r < map.world_size(); ++r) {
    const RankPlan p = build_rank_plan(job, map, r, options, copies);
    for (size_t e = 0; e < p.entries.size(); ++e) {
      const PlanEntry& pe = p.entries[e];
      if (pe.send || pe.peer < 0) continue;
      iteration[{pe.peer, r, pe.key, pe.msg_opnum}] = p.timeline.entries[e].iteration;
    }
  }
  std::vector<int32_t> out;
  out.reserve(flows.size());
  for (const Flow& f : flows) {
    const auto it = iteration.find({f.src, f.dst, f.key, f.opnum});
    out.push_back(it == iteration.end() || it->second < 1 ? -1 : it->second);
  }
  return out;
}

}  // namespace dlcnet::replay
