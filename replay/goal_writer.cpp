#include "replay/goal_writer.hpp"

#include <string>

#include "replay/replay_plan.hpp"

namespace dlcnet::replay {
namespace {

void rank_block(std::ostream& out, const RankPlan& p, GoalCounts& n) {
  out << "\nrank " << p.rank << " {\n";
  const auto count = static_cast<uint32_t>(p.entries.size());
  uint64_t next_label = count + 1;  // labels l1..lN are the entries; calcs follow
  for (uint32_t i = 0; i < count; ++i) {
    const PlanEntry& e = p.entries[i];
    const uint64_t label = i + 1;
    out << 'l' << label << ": ";
    if (!e.replayable || e.peer < 0) {
      out << "calc 0\n";
      ++n.calcs;
    } else if (e.send) {
      out << "send " << e.bytes << "b to " << e.peer << " tag " << e.channel_pos << '\n';
      ++n.sends;
    } else {
      out << "recv " << e.bytes << "b from " << e.peer << " tag " << e.channel_pos << '\n';
      ++n.recvs;
    }
    uint64_t after = label;  // what the dependencies point at: the calc, if there is one
    if (e.send && e.replayable && e.think_ns > 0) {
      after = next_label++;
      out << 'l' << after << ": calc " << e.think_ns << '\n';
      out << 'l' << label << " requires l" << after << '\n';
      ++n.calcs;
      ++n.requires_;
    }
    for (uint32_t d : p.timeline.deps_of(i)) {
      out << 'l' << after << " requires l" << (d + 1) << '\n';
      ++n.requires_;
    }
  }
  out << "}\n";
}

}  // namespace

GoalCounts write_goal(std::ostream& out, const trace::Job& job, const RankMap& map,
                      const PlanOptions& options, const Copies& copies) {
  GoalCounts n;
  out << "num_ranks " << map.world_size() << '\n';
  for (int r = 0; r < map.world_size(); ++r) {
    rank_block(out, build_rank_plan(job, map, r, options, copies), n);
  }
  return n;
}

}  // namespace dlcnet::replay
