#include "replay/job_messages.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace dlcnet::replay {
namespace {

void merge_into(std::vector<uint32_t>& into, const std::vector<uint32_t>& from) {
  into.insert(into.end(), from.begin(), from.end());
}

void sort_unique(std::vector<uint32_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

JobMessages job_messages(const trace::Job& job, const RankMap& map, const PlanOptions& options,
                         const Copies& copies) {
  const int world = map.world_size();
  std::vector<RankPlan> plans;
  plans.reserve(static_cast<size_t>(world));
  for (int r = 0; r < world; ++r) plans.push_back(build_rank_plan(job, map, r, options, copies));
  // Message ids: every replayed send, rank by rank, in entry order.
  std::vector<std::vector<int64_t>> id(static_cast<size_t>(world));
  JobMessages out;
  for (int r = 0; r < world; ++r) {
    const RankPlan& p = plans[static_cast<size_t>(r)];
    id[static_cast<size_t>(r)].assign(p.entries.size(), -1);
    for (size_t e = 0; e < p.entries.size(); ++e) {
      const PlanEntry& pe = p.entries[e];
      if (!pe.send || !pe.replayable || pe.peer < 0) continue;
      id[static_cast<size_t>(r)][e] = static_cast<int64_t>(out.messages.size());
      model::Message m;
      m.id = out.messages.size();
      m.src = static_cast<uint32_t>(r);
      m.dst = static_cast<uint32_t>(pe.peer);
      m.bytes = pe.bytes;
      if (options.mode == Mode::timed) m.start_s = static_cast<double>(pe.timed_ns) * 1e-9;
      m.think_s = static_cast<double>(pe.think_ns) * 1e-9;
      out.messages.push_back(m);
      out.key.push_back(pe.key);
      out.opnum.push_back(pe.msg_opnum);
    }
  }
  if (options.mode == Mode::timed) return out;
  for (int r = 0; r < world; ++r) {
    const RankPlan& p = plans[static_cast<size_t>(r)];
    // What each entry stands for, in messages; entries depend on earlier entries only.
    std::vector<std::vector<uint32_t>> stands(p.entries.size());
    for (uint32_t e = 0; e < p.entries.size(); ++e) {
      const PlanEntry& pe = p.entries[e];
      std::vector<uint32_t> deps;
      for (uint32_t d : p.timeline.deps_of(e)) {
        if (d >= e) {
          throw Error("rank " + std::to_string(r) + ": entry " + std::to_string(e) +
                      " depends on a later entry (" + std::to_string(d) + ")");
        }
        merge_into(deps, stands[d]);
      }
      sort_unique(deps);
      const int64_t mine = id[static_cast<size_t>(r)][e];
      if (mine >= 0) {
        model::Message& m = out.messages[static_cast<size_t>(mine)];
        m.after = deps;
        if (m.after.empty()) m.start_s = m.think_s;  // nothing to wait for: from the start
        stands[e] = {static_cast<uint32_t>(mine)};
      } else if (!pe.send && pe.replayable && pe.peer >= 0) {
        const RankPlan& from = plans[static_cast<size_t>(pe.peer)];
        const std::vector<uint32_t>& channel = from.sends_to[static_cast<size_t>(r)];
        stands[e] = deps;
        if (pe.channel_pos < channel.size()) {
          const int64_t m = id[static_cast<size_t>(pe.peer)][channel[pe.channel_pos]];
          if (m >= 0) stands[e].push_back(static_cast<uint32_t>(m));
        }
        sort_unique(stands[e]);
      } else {
        stands[e] = std::move(deps);
      }
    }
  }
  return out;
}

}  // namespace dlcnet::replay
