#include "trace/trace_stats_report.hpp"

#include <array>
#include <span>

#include "core/stats_json.hpp"
#include "core/table.hpp"
#include "trace/figure_legend.hpp"

namespace dlcnet::trace {
namespace {

using nlohmann::json;

std::string ms(double s) {
  return fixed(s * 1e3, 3);
}
std::string us(double s) {
  return fixed(s * 1e6, 1);
}
std::string n(uint64_t v) {
  return std::to_string(v);
}

json tallies_json(const OpTallies& t) {
  json j = json::object();
  for (size_t o = 0; o < kNumOps; ++o) {
    if (t[o].messages == 0) continue;
    j[std::string(op_name(static_cast<Op>(o)))] = {{"messages", t[o].messages},
                                                   {"bytes", t[o].bytes}};
  }
  return j;
}

json sizes_json(const SizeDistribution& d) {
  json buckets = json::array();
  for (size_t b = 0; b < d.log2_buckets.size(); ++b) {
    if (d.log2_buckets[b] == 0) continue;
    buckets.push_back({{"from_bytes", b == 0 ? 0 : uint64_t{1} << b},
                       {"to_bytes", (uint64_t{1} << (b + 1)) - 1},
                       {"count", d.log2_buckets[b]}});
  }
  return {{"count", d.count}, {"min", d.min}, {"p50", d.p50},   {"p90", d.p90},
          {"p99", d.p99},     {"max", d.max}, {"mean", d.mean}, {"log2_histogram", buckets}};
}

json node_json(const NodeStats& ns) {
  json j = {{"name", ns.name},
            {"rank", ns.rank},
            {"role", std::string(role_name(ns.role))},
            {"file", ns.file},
            {"records", ns.records},
            {"by_operation", tallies_json(ns.ops)},
            {"message_sizes", sizes_json(ns.sizes)}};
  json it = json::array();
  if (ns.role == Role::kWorker) {
    j["summary"] = {{"computation_s", latency_summary_json(ns.computation_s)},
                    {"phase1_s", latency_summary_json(ns.phase1_s)},
                    {"phase2_s", latency_summary_json(ns.phase2_s)},
                    {"phase3_s", latency_summary_json(ns.phase3_s)},
                    {"iteration_s", latency_summary_json(ns.total_s)},
                    {"overlap_ratio", latency_summary_json(ns.overlap_ratio)},
                    {"wait_s", latency_summary_json(ns.wait_s)}};
    for (const WorkerIteration& w : ns.worker_iterations) {
      it.push_back({{"iteration", w.iteration},
                    {"complete", w.complete},
                    {"by_operation", tallies_json(w.ops)},
                    {"phase1_s", w.phase1_s},
                    {"phase2_s", w.phase2_s},
                    {"phase3_s", w.phase3_s},
                    {"computation_s", w.computation_s},
                    {"iteration_s", w.total_s},
                    {"overlap_ratio", w.overlap_ratio},
                    {"wait_s", w.wait_s}});
    }
  } else {
    j["summary"] = {{"sync_s", latency_summary_json(ns.sync_s)},
                    {"update_s", latency_summary_json(ns.update_s)},
                    {"search_s", latency_summary_json(ns.search_s)}};
    for (const ServerIteration& s : ns.server_iterations) {
      it.push_back({{"iteration", s.iteration},
                    {"complete", s.complete},
                    {"by_operation", tallies_json(s.ops)},
                    {"sync_s", s.sync_s},
                    {"update_keys", s.update_keys},
                    {"update_mean_s", s.update_mean_s},
                    {"update_max_s", s.update_max_s},
                    {"search_mean_s", s.search_mean_s}});
    }
  }
  j["iterations"] = it;
  return j;
}

void print_ops(std::ostream& out, const JobStats& s) {
  Table t({{"node", ""}, {"operation", ""}, {"messages", ""}, {"bytes", "B"}, {"mean", "B"}});
  for (const NodeStats& ns : s.nodes) {
    for (size_t o = 0; o < kNumOps; ++o) {
      const OpTally& x = ns.ops[o];
      if (x.messages == 0) continue;
      t.add_row({ns.name, std::string(op_name(static_cast<Op>(o))), n(x.messages), n(x.bytes),
                 n(x.bytes / x.messages)});
    }
  }
  out << "\nMessages by node and operation\n";
  t.print(out);
}

void print_sizes(std::ostream& out, const JobStats& s) {
  Table t({{"node", ""},
           {"records", ""},
           {"min", "B"},
           {"p50", "B"},
           {"p90", "B"},
           {"p99", "B"},
           {"max", "B"},
           {"mean", "B"}});
  auto row = [&](const std::string& name, const SizeDistribution& d) {
    t.add_row(
        {name, n(d.count), n(d.min), n(d.p50), n(d.p90), n(d.p99), n(d.max), fixed(d.mean, 0)});
  };
  for (const NodeStats& ns : s.nodes) row(ns.name, ns.sizes);
  row("messages", s.sizes);
  out << "\nMessage sizes (nearest-rank percentiles)\n";
  t.print(out);
}

constexpr std::array kWorkerFigures{Figure::kIterTime, Figure::kComputation,   Figure::kPhase1,
                                    Figure::kPhase2,   Figure::kCommunication, Figure::kOverlap,
                                    Figure::kWait};
constexpr std::array kServerFigures{Figure::kSync, Figure::kUpdate, Figure::kUpdateMax,
                                    Figure::kSearch};

// Columns: the node, its iteration (or the count of iterations averaged), then the figures.
Table figure_table(const char* node, bool per_iteration, std::span<const Figure> figures) {
  std::vector<Column> columns{{node, ""}, {per_iteration ? "iteration" : "iterations", ""}};
  for (const Figure f : figures) columns.push_back(figure_column(f));
  return Table(std::move(columns));
}

bool print_workers(std::ostream& out, const JobStats& s, bool per_iteration) {
  Table t = figure_table("worker", per_iteration, kWorkerFigures);
  auto row = [&](const std::string& name, uint64_t it, const std::array<double, 7>& v) {
    std::vector<std::string> cells{name, n(it)};
    for (size_t i = 0; i < v.size(); ++i) cells.push_back(figure_text(kWorkerFigures[i], v[i]));
    t.add_row(std::move(cells));
  };
  for (const NodeStats& ns : s.nodes) {
    if (ns.role != Role::kWorker) continue;
    if (per_iteration) {
      for (const WorkerIteration& w : ns.worker_iterations) {
        if (!w.complete) continue;
        row(ns.name, static_cast<uint64_t>(w.iteration),
            {w.total_s, w.computation_s, w.phase1_s, w.phase2_s, w.phase3_s, w.overlap_ratio,
             w.wait_s});
      }
    } else {
      row(ns.name, ns.computation_s.count,
          {ns.total_s.mean, ns.computation_s.mean, ns.phase1_s.mean, ns.phase2_s.mean,
           ns.phase3_s.mean, ns.overlap_ratio.mean, ns.wait_s.mean});
    }
  }
  if (t.rows() == 0) return false;
  out << "\nWorker overheads" << (per_iteration ? "" : " (mean over complete iterations)") << "\n";
  t.print(out);
  return true;
}

bool print_servers(std::ostream& out, const JobStats& s, bool per_iteration) {
  Table t = figure_table("server", per_iteration, kServerFigures);
  auto row = [&](const std::string& name, uint64_t it, const std::array<double, 4>& v) {
    std::vector<std::string> cells{name, n(it)};
    for (size_t i = 0; i < v.size(); ++i) cells.push_back(figure_text(kServerFigures[i], v[i]));
    t.add_row(std::move(cells));
  };
  for (const NodeStats& ns : s.nodes) {
    if (ns.role != Role::kServer) continue;
    if (per_iteration) {
      for (const ServerIteration& x : ns.server_iterations) {
        if (!x.complete) continue;
        row(ns.name, static_cast<uint64_t>(x.iteration),
            {x.sync_s, x.update_mean_s, x.update_max_s, x.search_mean_s});
      }
    } else {
      row(ns.name, ns.sync_s.count,
          {ns.sync_s.mean, ns.update_s.mean, ns.update_s.max, ns.search_s.mean});
    }
  }
  if (t.rows() == 0) return false;
  out << "\nServer overheads" << (per_iteration ? "" : " (mean over complete iterations)") << "\n";
  t.print(out);
  return true;
}

void print_keys(std::ostream& out, const JobStats& s, size_t max_keys) {
  Table t({{"key", ""},
           {"pushes", ""},
           {"push size", "B"},
           {"push p50", "usec"},
           {"push p99", "usec"},
           {"pull size", "B"},
           {"pull p50", "usec"},
           {"pull p99", "usec"}});
  for (const KeyStats& k : s.keys) {
    if (max_keys != 0 && t.rows() == max_keys) break;
    t.add_row({std::to_string(k.key), n(k.push_messages), n(k.push_bytes_max), us(k.push_rtt_s.p50),
               us(k.push_rtt_s.p99), n(k.pull_bytes_max), us(k.pull_rtt_s.p50),
               us(k.pull_rtt_s.p99)});
  }
  if (t.rows() == 0) return;
  out << "\nRound-trip times per key, at the workers (training iterations)\n";
  t.print(out);
  if (t.rows() < s.keys.size()) {
    out << "(" << s.keys.size() - t.rows() << " more keys: --keys 0 prints all)\n";
  }
}

}  // namespace

void print_stats(std::ostream& out, const JobStats& s, const StatsPrintOptions& o) {
  out << "job: " << s.num_workers << " workers, " << s.num_servers << " servers, " << s.nodes.size()
      << " node files, " << s.records << " records, " << s.messages << " messages, " << s.iterations
      << " training iterations\n";
  if (s.computation_s.count != 0) {
    out << "computation " << ms(s.computation_s.mean) << " msec mean (" << s.computation_s.count
        << " worker iterations), overlap " << fixed(s.overlap_ratio.mean * 100, 1)
        << " % (phase 2 / iter_time), wait " << ms(s.wait_s.mean) << " msec\n";
  }
  print_ops(out, s);
  print_sizes(out, s);
  const bool workers = print_workers(out, s, o.per_iteration);
  const bool servers = print_servers(out, s, o.per_iteration);
  // The figures' legend right under their tables, from the one list dlc-replay prints too.
  std::vector<Figure> shown;
  if (workers) shown.insert(shown.end(), kWorkerFigures.begin(), kWorkerFigures.end());
  if (servers) shown.insert(shown.end(), kServerFigures.begin(), kServerFigures.end());
  if (!shown.empty()) print_figure_legend(out, shown);
  print_keys(out, s, o.max_keys);
}

json stats_to_json(const JobStats& s) {
  json j;
  j["job"] = {{"num_workers", s.num_workers}, {"num_servers", s.num_servers},
              {"node_files", s.nodes.size()}, {"records", s.records},
              {"messages", s.messages},       {"iterations", s.iterations}};
  j["summary"] = {{"computation_s", latency_summary_json(s.computation_s)},
                  {"overlap_ratio", latency_summary_json(s.overlap_ratio)},
                  {"wait_s", latency_summary_json(s.wait_s)},
                  {"sync_s", latency_summary_json(s.sync_s)},
                  {"update_s", latency_summary_json(s.update_s)},
                  {"push_rtt_s", latency_summary_json(s.push_rtt_s)},
                  {"pull_rtt_s", latency_summary_json(s.pull_rtt_s)}};
  j["by_operation"] = tallies_json(s.ops);
  j["message_sizes"] = sizes_json(s.sizes);
  json nodes = json::array();
  for (const NodeStats& ns : s.nodes) nodes.push_back(node_json(ns));
  j["nodes"] = nodes;
  json keys = json::array();
  for (const KeyStats& k : s.keys) {
    keys.push_back({{"key", k.key},
                    {"push_messages", k.push_messages},
                    {"push_bytes_min", k.push_bytes_min},
                    {"push_bytes_max", k.push_bytes_max},
                    {"pull_bytes_min", k.pull_bytes_min},
                    {"pull_bytes_max", k.pull_bytes_max},
                    {"push_rtt_s", latency_summary_json(k.push_rtt_s)},
                    {"pull_rtt_s", latency_summary_json(k.pull_rtt_s)}});
  }
  j["keys"] = keys;
  return j;
}

json diagnostics_to_json(const Diagnostics& d) {
  json counts = json::object();
  for (size_t i = 0; i < kNumProblems; ++i) {
    const auto p = static_cast<Problem>(i);
    if (d.count_of(p) != 0) counts[std::string(problem_name(p))] = d.count_of(p);
  }
  return {{"errors", d.errors()},
          {"warnings", d.warnings()},
          {"notes", d.total(Severity::kNote)},
          {"counts", counts}};
}

}  // namespace dlcnet::trace
