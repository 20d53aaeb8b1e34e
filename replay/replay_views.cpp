#include "replay/replay_views.hpp"

#include "core/error.hpp"

namespace dlcnet::replay {

trace::Job replay_view(const trace::Job& job, const RankMap& map, const Copies& copies,
                       std::span<const RankReport> reports, ViewTimes times) {
  trace::Job view = trace::make_job_skeleton(job.num_workers, job.num_servers);
  for (int r = 0; r < map.world_size(); ++r) {
    const trace::Node& src = job.nodes[map.node_of(r)];
    const NodeTimeline tl = expand_node(job, src, copies);
    const RankReport& rep = reports[static_cast<size_t>(r)];
    if (rep.event_ns.size() != tl.entries.size()) {
      throw Error("rank " + std::to_string(r) + " reports " + std::to_string(rep.event_ns.size()) +
                  " records, its timeline has " + std::to_string(tl.entries.size()));
    }
    trace::Node& dst = view.nodes[src.rank];
    dst.present = true;
    dst.hostname = src.hostname;
    dst.file = src.file;
    std::vector<uint32_t> kept(tl.entries.size(), trace::kNone);
    for (uint32_t e = 0; e < tl.entries.size(); ++e) {
      if (rep.event_ns[e] < 0) continue;
      const TimelineEntry& te = tl.entries[e];
      trace::Record rec = src.records[te.record];
      rec.iteration = te.iteration;
      rec.opnum = te.opnum;
      rec.time_ns = times == ViewTimes::trace ? te.trace_time_ns : rep.event_ns[e];
      rec.dep_begin = static_cast<uint32_t>(dst.deps.size());
      for (uint32_t d : tl.deps_of(e)) {
        if (kept[d] != trace::kNone) dst.deps.push_back(kept[d]);
      }
      kept[e] = static_cast<uint32_t>(dst.records.size());
      rec.message = trace::kNone;
      if (rec.is_send()) {
        rec.message = static_cast<uint32_t>(view.messages.size());
        view.messages.push_back(trace::Message{kept[e], trace::kNone, src.rank, rec.peer});
      }
      dst.records.push_back(rec);
    }
  }
  return view;
}

}  // namespace dlcnet::replay
