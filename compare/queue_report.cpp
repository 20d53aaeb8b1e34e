#include "compare/queue_report.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "compare/percent.hpp"

namespace dlcnet::compare {
namespace {

std::string kib(double bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f KiB", bytes / 1024.0);
  return b;
}

std::string secs(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6f s", s);
  return b;
}

nlohmann::json series_json(const QueueSeries& s, const std::string& note) {
  nlohmann::json j = {{"file", s.file},
                      {"format", s.format},
                      {"shape", s.shape == QueueShape::step ? "step" : "linear"},
                      {"points", s.points.size()}};
  if (s.port.resolved()) {
    j["port"] = {{"switch", s.port.sw}, {"port", s.port.port}, {"queue", s.port.queue}};
  }
  if (!note.empty()) j["note"] = note;
  return j;
}

}  // namespace

void print_queue_comparison(std::ostream& out, const QueueComparison& c) {
  const double z = c.offset_s;
  out << "dlc-compare queue: " << c.measured.file << " (" << c.measured.format << ", "
      << c.measured.points.size() << " samples) against " << c.predicted.file << " ("
      << c.predicted.format
      << (c.predicted.port.resolved() ? " port " + c.predicted.port.name() : std::string()) << ", "
      << c.predicted.points.size() << " points)\n";
  if (!c.measured_note.empty()) out << "  " << c.measured_note << '\n';
  if (!c.predicted_note.empty()) out << "  " << c.predicted_note << '\n';
  out << "  time: predicted 0 = measured " << secs(z) << " (" << c.offset_from << "); span "
      << secs(c.t0_s - z) << " to " << secs(c.t1_s - z) << " from it, grid " << c.grid_s * 1e6
      << " us (" << c.grid_t.size() << " points)\n";
  out << "  peak: measured " << kib(c.measured_peak.max_bytes) << " at "
      << secs(c.measured_peak.t_s - z) << ", predicted " << kib(c.predicted_peak.max_bytes)
      << " at " << secs(c.predicted_peak.t_s - z) << ": " << signed_pct(c.peak_error) << '\n';
  if (!c.explanation.empty()) out << "  why they differ: " << c.explanation << '\n';
  out << "  mean: measured " << kib(c.measured_mean) << ", predicted " << kib(c.predicted_mean)
      << ": " << signed_pct(c.mean_error) << "; mean |difference| " << kib(c.mean_abs_diff)
      << ", area ratio " << c.area_ratio << '\n';
  if (c.rounds.empty()) return;
  out << "  round          start_s   measured@start  predicted@start   measured peak  "
         "predicted peak   error\n";
  for (const QueueRoundResult& r : c.rounds) {
    char b[200];
    std::snprintf(
        b, sizeof b, "  %-7s %3lld %10.4f %12.1f KiB %12.1f KiB %11.1f KiB %11.1f KiB %7s\n",
        r.round.kind.c_str(), static_cast<long long>(r.round.iteration), r.round.first_post_s - z,
        r.measured_start / 1024, r.predicted_start / 1024, r.measured_peak / 1024,
        r.predicted_peak / 1024, signed_pct(r.peak_error()).c_str());
    out << b;
  }
}

nlohmann::json queue_comparison_json(const QueueComparison& c) {
  const double z = c.offset_s;
  nlohmann::json j;
  j["schema"] = kQueueSchema;
  j["measured"] = series_json(c.measured, c.measured_note);
  j["predicted"] = series_json(c.predicted, c.predicted_note);
  j["alignment"] = {{"offset_s", c.offset_s}, {"from", c.offset_from}};
  j["explanation"] =
      c.explanation.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.explanation);
  j["span_s"] = {c.t0_s - z, c.t1_s - z};
  j["grid_s"] = c.grid_s;
  j["grid_points"] = c.grid_t.size();
  j["peak"] = {{"measured_bytes", c.measured_peak.max_bytes},
               {"measured_t_s", c.measured_peak.t_s - z},
               {"predicted_bytes", c.predicted_peak.max_bytes},
               {"predicted_t_s", c.predicted_peak.t_s - z},
               {"error", c.peak_error}};
  j["mean"] = {{"measured_bytes", c.measured_mean},
               {"predicted_bytes", c.predicted_mean},
               {"error", c.mean_error}};
  j["mean_abs_diff_bytes"] = c.mean_abs_diff;
  j["area_ratio"] = c.area_ratio;
  nlohmann::json rounds = nlohmann::json::array();
  for (const QueueRoundResult& r : c.rounds) {
    rounds.push_back({{"kind", r.round.kind},
                      {"iteration", r.round.iteration},
                      {"start_s", r.round.first_post_s - z},
                      {"end_s", r.round.last_arrival_s - z},
                      {"measured_start_bytes", r.measured_start},
                      {"predicted_start_bytes", r.predicted_start},
                      {"measured_peak_bytes", r.measured_peak},
                      {"predicted_peak_bytes", r.predicted_peak},
                      {"peak_error", r.peak_error()}});
  }
  j["rounds"] = rounds;
  return j;
}

void write_queue_csv(std::ostream& out, const QueueComparison& c) {
  out << "t_s,measured_bytes,predicted_bytes\n";
  char b[96];
  for (size_t i = 0; i < c.grid_t.size(); ++i) {
    std::snprintf(b, sizeof b, "%.9f,%.1f,%.1f\n", c.grid_t[i] - c.offset_s, c.grid_measured[i],
                  c.grid_predicted[i]);
    out << b;
  }
}

}  // namespace dlcnet::compare
