#include "compare/error_stats.hpp"

#include <algorithm>
#include <cmath>

namespace dlcnet::compare {

double ks_distance(std::vector<double> a, std::vector<double> b) {
  if (a.empty() || b.empty()) return 0;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  size_t i = 0, j = 0;
  double d = 0;
  // Walk both CDFs over the union of the samples; ties advance both sides together.
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    d = std::max(d, std::fabs(static_cast<double>(i) / na - static_cast<double>(j) / nb));
  }
  return d;
}

ErrorSummary summarize_errors(std::span<const Matched> m, size_t worst) {
  ErrorSummary s;
  s.count = m.size();
  std::vector<double> e, ae, meas, pred;
  double sum_abs = 0;
  for (const Matched& x : m) {
    e.push_back(x.error());
    ae.push_back(std::fabs(x.error()));
    sum_abs += std::fabs(x.error());
    meas.push_back(x.measured_ns * 1e-9);
    pred.push_back(x.predicted_ns * 1e-9);
  }
  s.signed_error = summarize_latency(e);
  s.abs_error = summarize_latency(ae);
  s.mape_pct = m.empty() ? 0 : 100.0 * sum_abs / static_cast<double>(m.size());
  s.ks = ks_distance(meas, pred);
  s.measured_s = summarize_latency(meas);
  s.predicted_s = summarize_latency(pred);
  std::vector<Matched> sorted(m.begin(), m.end());
  const size_t keep = std::min(worst, sorted.size());
  std::partial_sort(sorted.begin(), sorted.begin() + static_cast<ptrdiff_t>(keep), sorted.end(),
                    [](const Matched& a, const Matched& b) {
                      return std::fabs(a.error()) > std::fabs(b.error());
                    });
  s.worst.assign(sorted.begin(), sorted.begin() + static_cast<ptrdiff_t>(keep));
  return s;
}

}  // namespace dlcnet::compare
