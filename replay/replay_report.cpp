#include "replay/replay_report.hpp"

#include "flows/flow_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "core/table.hpp"
#include "core/units.hpp"
#include "trace/figure_legend.hpp"

namespace dlcnet::replay {
namespace {

// The figures of dlc-trace stats, with its names and units (trace/figure_legend.hpp).
constexpr std::array kIterationFigures{trace::Figure::kIterTime,      trace::Figure::kComputation,
                                       trace::Figure::kCommunication, trace::Figure::kOverlap,
                                       trace::Figure::kWait,          trace::Figure::kSync,
                                       trace::Figure::kUpdate,        trace::Figure::kSearch};

void print_iterations(std::ostream& out, const ReplayReport& r) {
  std::vector<Column> columns{{"iteration", ""}, {"source", ""}};
  for (const trace::Figure f : kIterationFigures) columns.push_back(trace::figure_column(f));
  Table t(std::move(columns));
  const auto trace_rows = iteration_rows(r.trace_stats);
  const auto replay_rows = iteration_rows(r.replay_stats);
  auto add = [&](const std::string& it, const char* source, const IterationRow& x) {
    const bool w = x.workers > 0, s = x.servers > 0;
    const std::array<std::pair<double, bool>, kIterationFigures.size()> v{{{x.total_s, w},
                                                                           {x.compute_s, w},
                                                                           {x.comm_s, w},
                                                                           {x.overlap, w},
                                                                           {x.wait_s, w},
                                                                           {x.sync_s, s},
                                                                           {x.update_s, s},
                                                                           {x.search_s, s}}};
    std::vector<std::string> cells{it, source};
    for (size_t i = 0; i < v.size(); ++i) {
      cells.push_back(v[i].second ? trace::figure_text(kIterationFigures[i], v[i].first) : "-");
    }
    t.add_row(std::move(cells));
  };
  std::map<int32_t, std::pair<const IterationRow*, const IterationRow*>> rows;
  for (const auto& x : trace_rows) rows[x.iteration].first = &x;
  for (const auto& x : replay_rows) rows[x.iteration].second = &x;
  const IterationRow none;
  for (const auto& [it, p] : rows) {
    add(std::to_string(it), "trace", p.first ? *p.first : none);
    add(std::to_string(it), "replay", p.second ? *p.second : none);
  }
  add("mean", "trace", mean_row(trace_rows));
  add("mean", "replay", mean_row(replay_rows));
  out << "\n# per iteration (means over workers and servers; trace times from each node's "
         "clock)\n";
  t.print(out);
  trace::print_figure_legend(out, kIterationFigures);
}

void print_fidelity(std::ostream& out, const ReplayReport& r, const RankNamer& name) {
  Table t({{"rank", ""},
           {"node", ""},
           {"sent", ""},
           {"received", ""},
           {"#wrong", ""},
           {"sched_p50", "usec"},
           {"sched_p99", "usec"},
           {"sched_max", "usec"},
           {"held", ""},
           {"hold_p99", "usec"}});
  for (const RankReport& k : r.ranks) {
    const LatencySummary s = summarize_latency(k.sched_error_s);
    const LatencySummary h = summarize_latency(k.order_hold_s);
    t.add_row({std::to_string(k.rank), name(k.rank), std::to_string(k.sends),
               std::to_string(k.receives), std::to_string(k.wrong), fixed(s.p50 * 1e6, 2),
               fixed(s.p99 * 1e6, 2), fixed(s.max * 1e6, 2), std::to_string(h.count),
               fixed(h.p99 * 1e6, 1)});
  }
  out << "\n# replay fidelity: scheduling error = post - (dependencies completed + think time); "
         "held = sends that waited for their channel's order\n";
  t.print(out);
}

}  // namespace

std::vector<IterationRow> iteration_rows(const trace::JobStats& stats) {
  std::map<int32_t, IterationRow> rows;
  for (const trace::NodeStats& n : stats.nodes) {
    for (const trace::WorkerIteration& w : n.worker_iterations) {
      if (!w.complete) continue;
      IterationRow& x = rows[w.iteration];
      x.iteration = w.iteration;
      ++x.workers;
      x.total_s += w.total_s;
      x.comm_s += w.phase3_s;
      x.compute_s += w.computation_s;
      x.overlap += w.overlap_ratio;
      x.wait_s += w.wait_s;
    }
    for (const trace::ServerIteration& s : n.server_iterations) {
      if (!s.complete) continue;
      IterationRow& x = rows[s.iteration];
      x.iteration = s.iteration;
      ++x.servers;
      x.sync_s += s.sync_s;
      x.update_s += s.update_mean_s;
      x.search_s += s.search_mean_s;
    }
  }
  std::vector<IterationRow> out;
  for (auto& [it, x] : rows) {
    if (x.workers) {
      const double w = x.workers;
      x.total_s /= w, x.comm_s /= w, x.compute_s /= w, x.overlap /= w, x.wait_s /= w;
    }
    if (x.servers) {
      const double s = x.servers;
      x.sync_s /= s, x.update_s /= s, x.search_s /= s;
    }
    out.push_back(x);
  }
  return out;
}

IterationRow mean_row(const std::vector<IterationRow>& rows) {
  IterationRow m;
  for (const IterationRow& x : rows) {
    if (x.workers) {
      ++m.workers;
      m.total_s += x.total_s, m.comm_s += x.comm_s, m.compute_s += x.compute_s;
      m.overlap += x.overlap, m.wait_s += x.wait_s;
    }
    if (x.servers) {
      ++m.servers;
      m.sync_s += x.sync_s, m.update_s += x.update_s, m.search_s += x.search_s;
    }
  }
  if (m.workers) {
    const double w = m.workers;
    m.total_s /= w, m.comm_s /= w, m.compute_s /= w, m.overlap /= w, m.wait_s /= w;
  }
  if (m.servers) {
    const double s = m.servers;
    m.sync_s /= s, m.update_s /= s, m.search_s /= s;
  }
  return m;
}

void print_report(std::ostream& out, const ReplayReport& r, const trace::Job& job,
                  const RankMap& map) {
  out << "# dlc-replay:";
  for (const auto& in : r.inputs) out << ' ' << in;
  out << "  (" << job.num_workers << (job.num_workers == 1 ? " worker, " : " workers, ")
      << job.num_servers << (job.num_servers == 1 ? " server" : " servers")
      << "; the scheduler is not replayed)\n";
  out << "# mode " << to_string(r.options.mode) << ", time scale " << r.options.time_scale
      << ", iterations " << r.copies.replay_iterations << " (the trace has "
      << r.copies.trace_iterations << (r.copies.count > 1 ? ", looped" : "") << "), op "
      << to_string(r.options.transfer) << ", transport " << r.transport << " ("
      << r.transport_reason << "), " << r.world_size << " ranks from " << r.rank_source << '\n';
  out << "# " << map.describe(job) << '\n';
  print_iterations(out, r);
  print_outcome(out, r, [&](int k) { return job.nodes[map.node_of(k)].name(); });
}

void print_outcome(std::ostream& out, const ReplayReport& r, const RankNamer& name) {
  print_fidelity(out, r, name);
  print_pairs(out, r.pairs);
  out << "\n# scheduling error over all ranks: p50 " << fixed(r.sched_error_s.p50 * 1e6, 2)
      << " us, p99 " << fixed(r.sched_error_s.p99 * 1e6, 2) << " us, max "
      << fixed(r.sched_error_s.max * 1e6, 2) << " us; run took " << fixed(r.duration_s, 3)
      << " s\n";
  out << (r.ok ? "# OK: " : "# FAILED: ") << r.verdict << '\n';
  print_fidelity_verdict(out, r.fidelity);
}

void print_fidelity_verdict(std::ostream& out, const Fidelity& f) {
  out << "# fidelity: " << f.verdict << ": " << f.reason << '\n';
  if (f.verdict != "unreliable") return;
  out << "# WARNING: the replay's";
  for (size_t i = 0; i < f.unreliable_figures.size(); ++i) {
    out << (i == 0 ? " " : ", ") << f.unreliable_figures[i];
  }
  out << " are unreliable: its posts were late by more than " << fixed(kFidelityShare * 100, 0)
      << " % of the think times they had to reproduce (a busy host, more ranks than CPUs, or "
         "an emulated guest does this); compare them with the trace's only with that in mind\n";
}

}  // namespace dlcnet::replay
