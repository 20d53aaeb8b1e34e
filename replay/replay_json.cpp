#include "replay/replay_json.hpp"

#include "flows/flow_report.hpp"

#include "core/run_context.hpp"
#include "core/stats_json.hpp"
#include "replay/replay_report.hpp"
#include "trace/trace_stats_report.hpp"

namespace dlcnet::replay {
namespace {

nlohmann::json row_json(const IterationRow& x) {
  nlohmann::json j = {{"workers", x.workers}, {"servers", x.servers}};
  if (x.workers) {
    j["iteration_time_s"] = x.total_s;
    j["communication_s"] = x.comm_s;
    j["computation_s"] = x.compute_s;
    j["overlap_ratio"] = x.overlap;
    j["wait_s"] = x.wait_s;
  }
  if (x.servers) {
    j["sync_s"] = x.sync_s;
    j["update_s"] = x.update_s;
    j["search_s"] = x.search_s;
  }
  return j;
}

nlohmann::json iterations_json(const ReplayReport& r) {
  std::map<int32_t, nlohmann::json> rows;
  for (const auto& x : iteration_rows(r.trace_stats)) rows[x.iteration]["trace"] = row_json(x);
  for (const auto& x : iteration_rows(r.replay_stats)) rows[x.iteration]["replay"] = row_json(x);
  nlohmann::json a = nlohmann::json::array();
  for (auto& [it, j] : rows) {
    j["iteration"] = it;
    a.push_back(j);
  }
  return a;
}

}  // namespace

nlohmann::json report_json(const ReplayReport& r, const trace::Job& job, const RankMap& map) {
  nlohmann::json doc =
      report_json_common(r, [&](int k) { return job.nodes[map.node_of(k)].name(); });
  doc["job"] = {{"inputs", r.inputs},
                {"workers", job.num_workers},
                {"servers", job.num_servers},
                {"scheduler", "not replayed"},
                {"records", job.record_count()},
                {"messages", job.messages.size()},
                {"trace_iterations", r.copies.trace_iterations}};
  doc["rank_map"] = map.to_json(job);
  doc["iterations"] = iterations_json(r);
  doc["trace_stats"] = trace::stats_to_json(r.trace_stats);
  doc["replay_stats"] = trace::stats_to_json(r.replay_stats);
  return doc;
}

nlohmann::json report_json_common(const ReplayReport& r, const RankNamer& name) {
  nlohmann::json doc;
  doc["schema_version"] = kReportSchemaVersion;
  doc["replay"] = {{"mode", to_string(r.options.mode)},
                   {"time_scale", r.options.time_scale},
                   {"iterations", r.copies.replay_iterations},
                   {"copies", r.copies.count},
                   {"op", to_string(r.options.transfer)},
                   {"part_bytes", r.options.part_bytes},
                   {"transport", r.transport},
                   {"ranks", r.world_size},
                   {"rank_source", r.rank_source},
                   {"duration_s", r.duration_s}};
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankReport& k : r.ranks) {
    ranks.push_back(
        {{"rank", k.rank},
         {"node", name(k.rank)},
         {"records", k.entries},
         {"sends", k.sends},
         {"receives", k.receives},
         {"not_replayed", k.unreplayable},
         {"split_messages", k.split},
         {"wrong", k.wrong},
         {"busy_retries", k.busy},
         {"records_written", k.records_written},
         {"duration_s", (k.end_ns - k.start_ns) * 1e-9},
         {"scheduling_error_s", latency_summary_json(summarize_latency(k.sched_error_s))},
         {"order_hold_s", latency_summary_json(summarize_latency(k.order_hold_s))}});
  }
  doc["ranks"] = ranks;
  doc["scheduling_error_s"] = latency_summary_json(r.sched_error_s);
  doc["order_hold_s"] = latency_summary_json(r.order_hold_s);
  doc["latency"] = pairs_json(r.pairs);
  doc["messages"] = {{"sent", r.sends},
                     {"received", r.receives},
                     {"flows", r.flows.size()},
                     {"wrong", r.wrong},
                     {"duplicates", r.duplicates},
                     {"split", r.split},
                     {"not_replayed", r.unreplayable}};
  doc["ok"] = r.ok;
  doc["verdict"] = r.verdict;
  const Fidelity& f = r.fidelity;
  doc["fidelity"] = {{"verdict", f.verdict},
                     {"sched_error_p99_s", f.sched_error_p99_s},
                     {"think_time_p50_s", f.think_time_p50_s},
                     {"think_times", f.think_times},
                     {"threshold_share", kFidelityShare},
                     {"threshold_s", f.threshold_s},
                     {"reason", f.reason},
                     {"unreliable_figures", f.unreliable_figures}};
  return doc;
}

}  // namespace dlcnet::replay
