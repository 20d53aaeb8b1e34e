#include "compare/queue_compare.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace dlcnet::compare {
namespace {

constexpr size_t kMaxGrid = 1000000;

// The largest point of s in [t0, t1] as (max_bytes, time): the value at t0 if nothing larger.
QueueSample peak_in(const QueueSeries& s, double t0, double t1) {
  QueueSample best{t0, queue_at(s, t0), queue_peak(s, t0, t0)};
  for (const QueueSample& p : s.points) {
    if (p.t_s > t0 && p.t_s <= t1 && p.max_bytes > best.max_bytes) best = p;
  }
  if (s.shape == QueueShape::linear && queue_at(s, t1) > best.max_bytes) {
    const double v = queue_at(s, t1);
    best = {t1, v, v};
  }
  return best;
}

double relative(double predicted, double measured) {
  return measured > 0 ? (predicted - measured) / measured : 0;
}

}  // namespace

QueueComparison compare_queues(QueueSeries measured, QueueSeries predicted,
                               const std::vector<QueueRound>& rounds, double offset_s,
                               const std::string& offset_from, double grid_s) {
  if (measured.points.size() < 2) {
    throw Error(measured.file + ": " + std::to_string(measured.points.size()) +
                " samples: nothing to compare");
  }
  if (!(grid_s > 0)) throw Error("--grid-us: must be positive");
  QueueComparison c;
  c.offset_s = offset_s;
  c.offset_from = offset_from;
  shift(predicted, offset_s);
  c.t0_s = measured.points.front().t_s;
  c.t1_s = measured.points.back().t_s;
  const double span = c.t1_s - c.t0_s;
  c.grid_s = std::max(grid_s, span / static_cast<double>(kMaxGrid - 1));
  const auto n = static_cast<size_t>(std::floor(span / c.grid_s)) + 1;
  c.grid_t.reserve(n);
  double sm = 0, sp = 0, sd = 0;
  for (size_t i = 0; i < n; ++i) {
    const double t = c.t0_s + static_cast<double>(i) * c.grid_s;
    const double m = queue_at(measured, t), p = queue_at(predicted, t);
    c.grid_t.push_back(t);
    c.grid_measured.push_back(m);
    c.grid_predicted.push_back(p);
    sm += m;
    sp += p;
    sd += std::fabs(p - m);
  }
  c.measured_mean = sm / static_cast<double>(n);
  c.predicted_mean = sp / static_cast<double>(n);
  c.mean_error = relative(c.predicted_mean, c.measured_mean);
  c.mean_abs_diff = sd / static_cast<double>(n);
  c.area_ratio = sm > 0 ? sp / sm : 0;
  c.measured_peak = peak_in(measured, c.t0_s, c.t1_s);
  c.predicted_peak = peak_in(predicted, c.t0_s, c.t1_s);
  c.peak_error = relative(c.predicted_peak.max_bytes, c.measured_peak.max_bytes);
  for (const QueueRound& r : rounds) {
    QueueRoundResult x;
    x.round = r;
    x.measured_start = queue_at(measured, r.first_post_s);
    x.predicted_start = queue_at(predicted, r.first_post_s);
    x.measured_peak = peak_in(measured, r.first_post_s, r.last_arrival_s).max_bytes;
    x.predicted_peak = peak_in(predicted, r.first_post_s, r.last_arrival_s).max_bytes;
    c.rounds.push_back(x);
  }
  c.measured = std::move(measured);
  c.predicted = std::move(predicted);
  return c;
}

}  // namespace dlcnet::compare
