#include "replay/replay_analysis.hpp"

#include <algorithm>

#include "core/table.hpp"
#include "replay/replay_views.hpp"
#include "trace/figure_legend.hpp"

namespace dlcnet::replay {

namespace {

std::string us_text(double s) {
  return fixed(s * 1e6, 1) + " us";
}

}  // namespace

Fidelity judge_fidelity(double sched_error_p99_s, double think_time_p50_s, uint64_t think_times,
                        Mode mode, JobKind kind) {
  Fidelity f;
  f.sched_error_p99_s = sched_error_p99_s;
  f.think_times = think_times;
  const bool chakra = kind == JobKind::chakra;
  if (think_times == 0 || !(think_time_p50_s > 0)) {
    f.verdict = "no_think_times";
    const char* why = mode == Mode::asap ? "mode asap replays no think time"
                      : chakra ? "the job's compute nodes take no time (every duration is 0)"
                               : "the trace's sends have no think time (every dTime is 0)";
    f.reason = std::string(why) +
               (chakra ? ": each rank's replay and communication times are the network's and "
                         "the engine's alone"
                       : ": the replay's computation, iter_time and overlap are the network's "
                         "and the engine's alone, not the trace's") +
               "; the scheduling error (p99 " + us_text(sched_error_p99_s) +
               ") delays every post by that much";
    return f;
  }
  f.think_time_p50_s = think_time_p50_s;
  f.threshold_s = kFidelityShare * think_time_p50_s;
  const std::string numbers = "scheduling error p99 " + us_text(sched_error_p99_s) +
                              (sched_error_p99_s < f.threshold_s ? " < " : " >= ") +
                              fixed(kFidelityShare * 100, 0) +
                              (chakra ? " % of the job's median compute duration "
                                      : " % of the trace's median think time ") +
                              us_text(think_time_p50_s) + " (" + us_text(f.threshold_s) + ")";
  if (sched_error_p99_s < f.threshold_s) {
    f.verdict = "reliable";
    f.reason = numbers;
    return f;
  }
  f.verdict = "unreliable";
  f.reason = numbers +
             ": posts were late by as much as the gaps they follow, which stretches the think "
             "and service times of the iteration; the one-way latencies (post to arrival) and "
             "the message counts stay valid";
  if (chakra) {
    // Built from post times and completions, as chakra_report.hpp prints them.
    f.unreliable_figures = {"per-rank replay", "compute", "comm", "both"};
    return f;
  }
  // Every per-iteration figure is built from post times (trace/figure_legend.hpp).
  for (const trace::Figure fig :
       {trace::Figure::kIterTime, trace::Figure::kComputation, trace::Figure::kCommunication,
        trace::Figure::kOverlap, trace::Figure::kWait, trace::Figure::kSync, trace::Figure::kUpdate,
        trace::Figure::kSearch}) {
    f.unreliable_figures.emplace_back(trace::figure_info(fig).name);
  }
  return f;
}

std::vector<double> think_times_s(const trace::Job& job, const PlanOptions& options) {
  std::vector<double> out;
  if (options.mode == Mode::asap) return out;
  for (const trace::Node& node : job.nodes) {
    int64_t previous = -1;  // timed: the node's previous send, in trace time
    for (const trace::Record& r : node.records) {
      if (!r.is_send() || r.message == trace::kNone) continue;
      double gap_ns = 0;
      if (options.mode == Mode::dag) {
        gap_ns = static_cast<double>(r.dtime_ns);
      } else if (r.time_ns != 0) {
        if (previous >= 0) gap_ns = static_cast<double>(r.time_ns - previous);
        previous = r.time_ns;
      }
      if (gap_ns > 0) out.push_back(gap_ns * options.time_scale * 1e-9);
    }
  }
  return out;
}

void analyse_messages(ReplayReport& rep) {
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

void analyse(ReplayReport& rep, const trace::Job& job, const RankMap& map) {
  analyse_messages(rep);
  rep.trace_stats =
      trace::compute_stats(replay_view(job, map, rep.copies, rep.ranks, ViewTimes::trace));
  rep.replay_stats =
      trace::compute_stats(replay_view(job, map, rep.copies, rep.ranks, ViewTimes::replay));

  const std::vector<double> think = think_times_s(job, rep.options);
  rep.fidelity = judge_fidelity(rep.sched_error_s.p99, summarize_latency(think).p50, think.size(),
                                rep.options.mode);
}

}  // namespace dlcnet::replay
