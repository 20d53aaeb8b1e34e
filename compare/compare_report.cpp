#include "compare/compare_report.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "compare/percent.hpp"

#include "core/error.hpp"
#include "core/stats_json.hpp"

namespace dlcnet::compare {
namespace {

std::string ms(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f ms", s * 1e3);
  return b;
}

nlohmann::json matched_json(const Matched& m) {
  return {{"src", m.src},
          {"dst", m.dst},
          {"sport", m.sport},
          {"size", m.bytes},
          {"group", m.group},
          {"key", m.key},
          {"opnum", m.opnum},
          {"start_s", m.start_ns * 1e-9},
          {"predicted_start_s", m.predicted_start_ns * 1e-9},
          {"measured_fct_s", m.measured_ns * 1e-9},
          {"predicted_fct_s", m.predicted_ns * 1e-9},
          {"error", m.error()}};
}

}  // namespace

Comparison compare(const FlowMap& map, const std::string& measured_file,
                   std::span<const FctRecord> fct, const std::string& predicted_file, double ack_ns,
                   bool free_starts) {
  if (map.flows.empty())
    throw Error(measured_file + ": holds no flows (its header only): nothing to compare");
  Comparison c;
  c.measured_file = measured_file;
  c.predicted_file = predicted_file;
  c.tool = map.tool;
  c.group_kind = map.group_kind;
  c.ack_ns = ack_ns;
  c.join = join_fct(map, measured_file, fct, predicted_file, ack_ns, free_starts);
  c.free_starts = free_starts;
  c.messages = summarize_errors(c.join.matched);
  c.groups = group_errors(c.join.matched);
  std::vector<double> ge;
  for (const GroupError& g : c.groups) ge.push_back(std::fabs(g.error()));
  c.group_abs_error = summarize_latency(ge);
  c.repeat = measured_repeatability(c.join.matched);
  return c;
}

void print_comparison(std::ostream& out, const Comparison& c) {
  const ErrorSummary& s = c.messages;
  out << "dlc-compare: " << s.count << " messages of " << (c.tool.empty() ? "a run" : c.tool)
      << " (" << c.measured_file << ") against " << c.predicted_file << "; fct = start to the "
      << "sender's completion, measured = one-way + " << c.ack_ns * 1e-3 << " us\n";
  if (!c.join.unpredicted.empty())
    out << "  " << c.join.unpredicted.size() << " flows have no line in " << c.predicted_file
        << " (not compared)\n";
  if (!c.join.unmeasurable.empty())
    out << "  " << c.join.unmeasurable.size()
        << " flows have a measured latency <= 0 (clock error above the latency; not compared)\n";
  if (s.count == 0) return;
  out << "  per message: error p50 " << signed_pct(s.signed_error.p50) << ", p90 "
      << signed_pct(s.signed_error.p90) << ", p99 " << signed_pct(s.signed_error.p99) << ", min "
      << signed_pct(s.signed_error.min) << ", max " << signed_pct(s.signed_error.max)
      << "; |error| p50 " << abs_pct(s.abs_error.p50) << "; MAPE " << abs_pct(s.mape_pct / 100)
      << "; KS " << s.ks << '\n';
  out << "  fct p50: measured " << ms(s.measured_s.p50) << ", predicted " << ms(s.predicted_s.p50)
      << "; p99: measured " << ms(s.measured_s.p99) << ", predicted " << ms(s.predicted_s.p99)
      << '\n';
  if (c.repeat.messages > 0) {
    out << "  the measurement against itself (the same message, next " << c.group_kind
        << " of the same shape): |change| p50 " << abs_pct(c.repeat.abs_change.p50) << ", p90 "
        << abs_pct(c.repeat.abs_change.p90) << " (" << c.repeat.messages << " messages, "
        << c.repeat.group_pairs << " pairs of " << c.group_kind << "s)\n";
  }
  if (!c.groups.empty()) {
    out << "  " << c.groups.size() << " " << c.group_kind
        << "s (first post to last arrival): |error| p50 " << abs_pct(c.group_abs_error.p50)
        << ", max " << abs_pct(c.group_abs_error.max) << '\n';
    for (const GroupError& g : c.groups) {
      out << "    " << c.group_kind << ' ' << g.group << ": " << g.messages
          << " messages, measured " << ms(g.measured_s) << ", predicted " << ms(g.predicted_s)
          << ", error " << signed_pct(g.error()) << '\n';
    }
  }
  out << "  worst predicted:\n";
  for (size_t i = 0; i < std::min<size_t>(5, s.worst.size()); ++i) {
    const Matched& m = s.worst[i];
    out << "    " << m.src << " -> " << m.dst << " sport " << m.sport << ", " << m.bytes << " B at "
        << ms(m.start_ns * 1e-9) << (c.group_kind.empty() ? "" : ", ")
        << (c.group_kind.empty() ? "" : c.group_kind + " " + std::to_string(m.group))
        << ": measured " << ms(m.measured_ns * 1e-9) << ", predicted " << ms(m.predicted_ns * 1e-9)
        << " (" << signed_pct(m.error()) << ")\n";
  }
}

nlohmann::json comparison_json(const Comparison& c) {
  const ErrorSummary& s = c.messages;
  nlohmann::json worst = nlohmann::json::array();
  for (const Matched& m : s.worst) worst.push_back(matched_json(m));
  nlohmann::json groups = nlohmann::json::array();
  for (const GroupError& g : c.groups) {
    groups.push_back({{"group", g.group},
                      {"messages", g.messages},
                      {"measured_s", g.measured_s},
                      {"predicted_s", g.predicted_s},
                      {"error", g.error()}});
  }
  return {{"schema", "dlcnet.compare/1"},
          {"measured", {{"file", c.measured_file}, {"tool", c.tool}}},
          {"predicted", {{"file", c.predicted_file}}},
          {"ack_latency_s", c.ack_ns * 1e-9},
          {"predicted_starts", c.free_starts ? "its own" : "the measured ones"},
          {"flows",
           {{"compared", s.count},
            {"unpredicted", c.join.unpredicted.size()},
            {"unmeasurable", c.join.unmeasurable.size()}}},
          {"messages",
           {{"signed_error", latency_summary_json(s.signed_error)},
            {"abs_error", latency_summary_json(s.abs_error)},
            {"mape_pct", s.mape_pct},
            {"ks", s.ks},
            {"measured_fct_s", latency_summary_json(s.measured_s)},
            {"predicted_fct_s", latency_summary_json(s.predicted_s)}}},
          {"group_kind", c.group_kind},
          {"groups", groups},
          {"group_abs_error", latency_summary_json(c.group_abs_error)},
          {"measured_repeatability",
           {{"messages", c.repeat.messages},
            {"group_pairs", c.repeat.group_pairs},
            {"abs_change", latency_summary_json(c.repeat.abs_change)}}},
          {"worst", worst}};
}

void write_comparison_csv(std::ostream& out, const Comparison& c) {
  out << "src,dst,sport,size,group,start_s,measured_fct_s,predicted_fct_s,error\n";
  char b[256];
  for (const Matched& m : c.join.matched) {
    std::snprintf(b, sizeof b, "%u,%u,%u,%llu,%d,%.9f,%.9f,%.9f,%.6f\n", m.src, m.dst, m.sport,
                  static_cast<unsigned long long>(m.bytes), m.group, m.start_ns * 1e-9,
                  m.measured_ns * 1e-9, m.predicted_ns * 1e-9, m.error());
    out << b;
  }
}

}  // namespace dlcnet::compare
