#include "compare/queue_series.hpp"

#include <algorithm>

namespace dlcnet::compare {
namespace {

// The first point after t.
std::vector<QueueSample>::const_iterator after(const QueueSeries& s, double t_s) {
  return std::upper_bound(s.points.begin(), s.points.end(), t_s,
                          [](double t, const QueueSample& p) { return t < p.t_s; });
}

}  // namespace

std::string QueuePort::name() const {
  if (!resolved()) return "";
  std::string n = std::to_string(sw) + ":" + std::to_string(port);
  if (queue >= 0) n += ":" + std::to_string(queue);
  return n;
}

double queue_at(const QueueSeries& s, double t_s) {
  const auto next = after(s, t_s);
  if (next == s.points.begin()) return 0;
  const QueueSample& p = *(next - 1);
  if (s.shape == QueueShape::step || next == s.points.end() || next->t_s <= p.t_s) return p.bytes;
  return p.bytes + (next->bytes - p.bytes) * (t_s - p.t_s) / (next->t_s - p.t_s);
}

double queue_peak(const QueueSeries& s, double t0_s, double t1_s) {
  auto it = after(s, t0_s);
  double peak = queue_at(s, t0_s);
  if (s.shape == QueueShape::step && it != s.points.begin()) peak = (it - 1)->max_bytes;
  for (; it != s.points.end() && it->t_s <= t1_s; ++it) peak = std::max(peak, it->max_bytes);
  if (s.shape == QueueShape::linear) peak = std::max(peak, queue_at(s, t1_s));
  return peak;
}

QueueSample queue_max(const QueueSeries& s) {
  QueueSample m;
  for (const QueueSample& p : s.points) {
    if (p.max_bytes > m.max_bytes) m = p;
  }
  return m;
}

void shift(QueueSeries& s, double dt_s) {
  for (QueueSample& p : s.points) p.t_s += dt_s;
}

}  // namespace dlcnet::compare
