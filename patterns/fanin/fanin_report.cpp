#include "patterns/fanin/fanin_report.hpp"

#include <algorithm>

#include "core/stats_json.hpp"
#include "core/table.hpp"
#include "core/units.hpp"

namespace dlcnet::fanin {
namespace {

std::string kib_or_dash(double bytes) {
  return bytes < 0 ? "-" : fixed(bytes / 1024.0, 1);
}

std::vector<std::string> row(const std::string& name, int workers, uint64_t per_worker,
                             double bct_ns, double bound_ns, double ratio, double goodput_Bps,
                             double jain, double s50, double s99, double qs, double qp, double qds,
                             double qdp) {
  return {name,
          std::to_string(workers),
          format_size(per_worker),
          fixed(bct_ns * 1e-6, 3),
          fixed(bound_ns * 1e-3, 2),
          fixed(ratio, 3),
          fixed(goodput_Bps * 8e-6, 1),
          fixed(jain, 3),
          fixed(s50, 2),
          fixed(s99, 2),
          fixed(qs / 1024.0, 1),
          fixed(qp / 1024.0, 1),
          kib_or_dash(qds),
          kib_or_dash(qdp)};
}

}  // namespace

Summary summarise(const Analysis& a) {
  Summary s;
  std::vector<double> bct, ratio, good, jain, skew, qs, qp, qds, qdp, lat, slow;
  for (const Iteration& it : a.iterations) {
    if (it.kind != RoundKind::incast) continue;
    ++s.iterations;
    s.bound_ns = std::max(s.bound_ns, it.bound_ns);
    bct.push_back(it.bct_ns);
    if (it.limit_ns > 0) ratio.push_back(it.bct_ns / it.limit_ns);
    good.push_back(it.goodput_Bps);
    jain.push_back(it.jain);
    skew.push_back(it.skew_ns);
    qs.push_back(it.queue_start_bytes);
    qp.push_back(it.queue_peak_bytes);
    if (it.qdisc_start_bytes >= 0) qds.push_back(it.qdisc_start_bytes);
    if (it.qdisc_peak_bytes >= 0) qdp.push_back(it.qdisc_peak_bytes);
    for (const Message& m : it.messages) {
      lat.push_back(m.latency_ns() * 1e-9);
      const double solo = a.solo.min_latency_ns[m.index];
      if (solo > 0) slow.push_back(m.latency_ns() / solo);
    }
  }
  s.bct_ns = median(bct);
  s.bct_over_limit = median(ratio);
  s.goodput_Bps = median(good);
  s.jain = median(jain);
  s.skew_ns = median(skew);
  s.queue_start_bytes = median(qs);
  s.queue_peak_bytes = median(qp);
  if (!qds.empty()) s.qdisc_start_bytes = median(qds);
  if (!qdp.empty()) s.qdisc_peak_bytes = median(qdp);
  s.latency = summarize_latency(lat);
  s.slowdown = summarize_latency(slow);
  return s;
}

void print_fanin(std::ostream& out, const FaninSpec& spec, const Analysis& a,
                 const std::string& headline) {
  out << "# " << headline << '\n';
  out << "# solo: effective rate " << fixed(a.solo.rate_Bps * 8e-6, 1) << " Mb/s, base latency "
      << fixed(a.solo.base_ns * 1e-3, 1) << " us, solo burst " << fixed(a.solo.bct_ns * 1e-6, 3)
      << " ms (median of " << a.solo.rounds << " solo rounds)\n";
  Table t({{"iter", ""},
           {"workers", ""},
           {"bytes/worker", ""},
           {"BCT", "ms"},
           {"bound", "us"},
           {"BCT/limit", ""},
           {"goodput", "Mb/s"},
           {"Jain", ""},
           {"slowdown p50", ""},
           {"p99", ""},
           {"queue@start", "KiB"},
           {"queue peak", "KiB"},
           {"qdisc@start", "KiB"},
           {"qdisc peak", "KiB"}});
  for (const Iteration& it : a.iterations) {
    const std::string name = it.kind == RoundKind::warmup ? "w" + std::to_string(it.iteration)
                                                          : std::to_string(it.iteration);
    t.add_row(row(name, it.workers, spec.burst_bytes(), it.bct_ns, it.bound_ns,
                  it.limit_ns > 0 ? it.bct_ns / it.limit_ns : 0, it.goodput_Bps, it.jain,
                  it.slowdown.p50, it.slowdown.p99, it.queue_start_bytes, it.queue_peak_bytes,
                  it.qdisc_start_bytes, it.qdisc_peak_bytes));
  }
  const Summary s = summarise(a);
  int workers = 0;
  for (const Iteration& it : a.iterations) workers = std::max(workers, it.workers);
  t.add_row(row("median", workers, spec.burst_bytes(), s.bct_ns, s.bound_ns, s.bct_over_limit,
                s.goodput_Bps, s.jain, s.slowdown.p50, s.slowdown.p99, s.queue_start_bytes,
                s.queue_peak_bytes, s.qdisc_start_bytes, s.qdisc_peak_bytes));
  t.print(out);
  std::vector<double> skew, late;
  for (const Iteration& it : a.iterations) {
    if (it.kind != RoundKind::incast) continue;
    skew.push_back(it.skew_ns * 1e-3);
    late.push_back(it.late_ns * 1e-3);
  }
  if (!skew.empty()) {
    const LatencySummary sk = summarize_latency(skew), la = summarize_latency(late);
    out << "# round starts: the workers' first posts within " << fixed(sk.p50, 1)
        << " us (median; max " << fixed(sk.max, 1) << " us) of each other";
    if (spec.release == Release::instant) {
      out << ", the last " << fixed(la.p50, 1) << " us (max " << fixed(la.max, 1)
          << " us) after the instant named";
    }
    out << '\n';
  }
  out << "# queue@start and queue peak: from latencies (delay over the solo minimum x effective "
         "rate); qdisc: sampled from the kernel queue (--qdisc)\n";
  if (a.background_messages > 0) {
    out << "# background: " << a.background_messages << " messages of " << format_size(spec.bg_size)
        << ", " << fixed(a.background_Bps * 8e-6, 1) << " Mb/s, latency p50 "
        << fixed(a.background_latency.p50 * 1e6, 1) << " us, p99 "
        << fixed(a.background_latency.p99 * 1e6, 1) << " us\n";
  }
}

nlohmann::json fanin_json(const FaninSpec& spec, const Analysis& a) {
  nlohmann::json j;
  j["spec"] = {{"workers", 0},
               {"background", spec.background},
               {"burst_bytes", spec.burst},
               {"burst_source", spec.burst_source},
               {"bytes_per_worker", spec.burst_bytes()},
               {"op", to_string(spec.op)},
               {"pull", spec.pull},
               {"iterations", spec.iterations},
               {"warmup", spec.warmup},
               {"solo", spec.solo},
               {"gap_us", spec.gap_us},
               {"release", to_string(spec.release)},
               {"bg_size", spec.bg_size},
               {"bg_window", spec.bg_window},
               {"bg_lead_ms", spec.bg_lead_ms}};
  j["solo"] = {{"rate_Bps", a.solo.rate_Bps},
               {"base_s", a.solo.base_ns * 1e-9},
               {"bct_s", a.solo.bct_ns * 1e-9},
               {"rounds", a.solo.rounds},
               {"min_latency_s", nlohmann::json::array()}};
  for (double v : a.solo.min_latency_ns) j["solo"]["min_latency_s"].push_back(v * 1e-9);
  int workers = 0;
  nlohmann::json its = nlohmann::json::array();
  for (const Iteration& it : a.iterations) {
    workers = std::max(workers, it.workers);
    nlohmann::json x = {
        {"kind", to_string(it.kind)},
        {"iteration", it.iteration},
        {"workers", it.workers},
        {"bytes", it.bytes},
        {"first_post_s", it.first_post_ns * 1e-9},
        {"last_arrival_s", it.last_arrival_ns * 1e-9},
        {"bct_s", it.bct_ns * 1e-9},
        {"bound_s", it.bound_ns * 1e-9},
        {"limit_s", it.limit_ns * 1e-9},
        {"bct_over_limit", it.limit_ns > 0 ? it.bct_ns / it.limit_ns : 0},
        {"goodput_Bps", it.goodput_Bps},
        {"jain", it.jain},
        {"worker_goodput_Bps", it.worker_goodput_Bps},
        {"skew_s", it.skew_ns * 1e-9},
        {"late_s", it.late_ns * 1e-9},
        {"latency", latency_summary_json(it.latency)},
        {"slowdown", latency_summary_json(it.slowdown)},
        {"queue_estimate_bytes", {{"start", it.queue_start_bytes}, {"peak", it.queue_peak_bytes}}},
        {"pull_s", it.pull_ns * 1e-9}};
    if (it.qdisc_peak_bytes >= 0) {
      x["qdisc"] = {{"start_bytes", it.qdisc_start_bytes},
                    {"peak_bytes", it.qdisc_peak_bytes},
                    {"drops", it.qdisc_drops}};
    }
    its.push_back(std::move(x));
  }
  j["spec"]["workers"] = workers;
  j["iterations"] = std::move(its);
  const Summary s = summarise(a);
  j["summary"] = {
      {"iterations", s.iterations},
      {"bct_s", s.bct_ns * 1e-9},
      {"bct_over_limit", s.bct_over_limit},
      {"goodput_Bps", s.goodput_Bps},
      {"jain", s.jain},
      {"skew_s", s.skew_ns * 1e-9},
      {"latency", latency_summary_json(s.latency)},
      {"slowdown", latency_summary_json(s.slowdown)},
      {"queue_estimate_bytes", {{"start", s.queue_start_bytes}, {"peak", s.queue_peak_bytes}}}};
  if (s.qdisc_peak_bytes >= 0) {
    j["summary"]["qdisc"] = {{"start_bytes", s.qdisc_start_bytes},
                             {"peak_bytes", s.qdisc_peak_bytes}};
  }
  j["background"] = {{"ranks", spec.background},
                     {"messages", a.background_messages},
                     {"rate_Bps", a.background_Bps},
                     {"latency", latency_summary_json(a.background_latency)}};
  return j;
}

}  // namespace dlcnet::fanin
