#include "replay/replay_report.hpp"

#include <algorithm>

#include "replay/replay_views.hpp"

namespace dlcnet::replay {

void analyse(ReplayReport& rep, const trace::Job& job, const RankMap& map) {
  std::vector<double> sched, hold;
  double first = 0, last = 0;
  for (const RankReport& r : rep.ranks) {
    rep.sends += r.sends;
    rep.receives += r.receives;
    rep.wrong += r.wrong;
    rep.split += r.split;
    rep.unreplayable += r.unreplayable;
    sched.insert(sched.end(), r.sched_error_s.begin(), r.sched_error_s.end());
    hold.insert(hold.end(), r.order_hold_s.begin(), r.order_hold_s.end());
    rep.flows.insert(rep.flows.end(), r.flows.begin(), r.flows.end());
    if (&r == &rep.ranks.front() || r.start_ns < first) first = r.start_ns;
    if (&r == &rep.ranks.front() || r.end_ns > last) last = r.end_ns;
  }
  rep.duration_s = (last - first) * 1e-9;
  rep.sched_error_s = summarize_latency(sched);
  rep.order_hold_s = summarize_latency(hold);

  rep.pairs = pair_latencies(rep.flows, &rep.duplicates);

  rep.trace_stats =
      trace::compute_stats(replay_view(job, map, rep.copies, rep.ranks, ViewTimes::trace));
  rep.replay_stats =
      trace::compute_stats(replay_view(job, map, rep.copies, rep.ranks, ViewTimes::replay));

  rep.ok = false;
  if (rep.wrong != 0) {
    rep.verdict = std::to_string(rep.wrong) + " messages arrived with another size than sent";
  } else if (rep.flows.size() != rep.sends || rep.receives != rep.sends) {
    rep.verdict = std::to_string(rep.sends) + " messages sent but " +
                  std::to_string(rep.flows.size()) + " received";
  } else if (rep.duplicates != 0) {
    rep.verdict = std::to_string(rep.duplicates) + " messages received twice";
  } else {
    rep.ok = true;
    rep.verdict = std::to_string(rep.sends) +
                  " messages replayed, each sent and received once, with the trace's sizes" +
                  (rep.split ? " (" + std::to_string(rep.split) + " split)" : std::string());
  }
}

}  // namespace dlcnet::replay
