#include "replay/chakra_from_dlc.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "replay/replay_plan.hpp"
#include "replay/replay_rank_map.hpp"
#include "replay/replay_timeline.hpp"

namespace dlcnet::replay {
namespace {

namespace ck = trace::chakra;

// Nanoseconds to the nearest microsecond; 0 for none or a negative time.
uint64_t micros(int64_t ns) {
  return ns <= 0 ? 0 : static_cast<uint64_t>(ns / 1000 + (ns % 1000 >= 500 ? 1 : 0));
}

// "s0", "w1": how the trace's OP_ID names the other end.
std::string peer_name(const trace::Job& job, uint16_t peer) {
  return peer >= job.num_workers ? "s" + std::to_string(peer - job.num_workers)
                                 : "w" + std::to_string(peer);
}

// "Push_Send_Worker 3-5-s0" (a data record, OP_ID with the opnum continued across copies) or
// "SendCom_TO_Servers to s0" (a set-up record).
std::string record_name(const trace::Job& job, const trace::Record& r, int32_t opnum) {
  std::string out(trace::op_name(r.op));
  if (!r.is_data()) return out + (r.is_send() ? " to " : " from ") + peer_name(job, r.peer);
  return out + " " + std::to_string(r.key) + "-" + std::to_string(opnum) + "-" +
         peer_name(job, r.peer);
}

ck::Rank rank_from_plan(const trace::Job& job, const RankPlan& p) {
  const trace::Node& me = job.nodes[p.node];
  int64_t node_first = INT64_MAX;
  for (const trace::Record& r : me.records) {
    if (r.time_ns != 0) node_first = std::min(node_first, r.time_ns);
  }
  const auto count = static_cast<uint32_t>(p.entries.size());
  // Ids in file order: a send with a think time is preceded by its COMP_NODE.
  std::vector<uint64_t> id(count);
  std::vector<uint64_t> think_us(count, 0);
  uint64_t next = 0;
  for (uint32_t e = 0; e < count; ++e) {
    const PlanEntry& pe = p.entries[e];
    if (pe.send && pe.replayable) think_us[e] = micros(pe.think_ns);
    if (think_us[e] > 0) ++next;
    id[e] = next++;
  }
  ck::Rank out;
  out.rank = p.rank;
  out.nodes.reserve(next);
  for (uint32_t e = 0; e < count; ++e) {
    const PlanEntry& pe = p.entries[e];
    const TimelineEntry& te = p.timeline.entries[e];
    const trace::Record& r = me.records[te.record];
    const std::string name = record_name(job, r, te.opnum);
    const uint64_t start =
        te.trace_time_ns == 0 || node_first == INT64_MAX ? 0 : micros(node_first + pe.timed_ns);
    std::vector<uint64_t> deps;
    for (const uint32_t d : p.timeline.deps_of(e)) deps.push_back(id[d]);
    if (think_us[e] > 0) {
      ck::Node c;
      c.id = id[e] - 1;
      c.type = ck::NodeType::kComp;
      out.store.set_name(c, "think " + name);
      out.store.set_deps(c, {}, deps);
      c.duration_us = think_us[e];
      c.start_us = start > think_us[e] ? start - think_us[e] : 0;
      deps = {c.id};
      c.index = static_cast<uint32_t>(out.nodes.size());
      out.nodes.push_back(std::move(c));
    }
    ck::Node n;
    n.id = id[e];
    n.index = static_cast<uint32_t>(out.nodes.size());
    out.store.set_deps(n, {}, deps);
    n.start_us = start;
    if (!pe.replayable || pe.peer < 0) {
      n.type = ck::NodeType::kComp;  // 0 us: the dependencies through it stay
      out.store.set_name(n, name + " (not replayed: its other end is not in the job)");
    } else {
      out.store.set_name(n, name);
      n.type = pe.send ? ck::NodeType::kCommSend : ck::NodeType::kCommRecv;
      n.src = pe.send ? p.rank : pe.peer;
      n.dst = pe.send ? pe.peer : p.rank;
      n.tag = pe.channel_pos;
      n.size = pe.bytes;
    }
    out.nodes.push_back(std::move(n));
  }
  return out;
}

}  // namespace

void chakra_ranks_from_dlc(const trace::Job& job, const PlanOptions& options,
                           const std::function<void(const ck::Rank&)>& each) {
  PlanOptions o = options;
  o.mode = Mode::dag;
  const RankMap map = RankMap::make(job, "");
  const Copies copies = Copies::make(job, o.iterations);
  for (int r = 0; r < map.world_size(); ++r) {
    each(rank_from_plan(job, build_rank_plan(job, map, r, o, copies)));
  }
}

}  // namespace dlcnet::replay
