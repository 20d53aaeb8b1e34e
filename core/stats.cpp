#include "core/stats.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace dlcnet {

double percentile_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) return 0;
  const double n = static_cast<double>(sorted.size());
  auto rank = static_cast<size_t>(std::ceil(p * n - 1e-9));  // guard 0.99*100 = 99.0000001
  if (rank == 0) rank = 1;
  return sorted[std::min(rank, sorted.size()) - 1];
}

double median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2.0;
}

LatencySummary summarize_latency(std::span<const double> samples) {
  LatencySummary s;
  if (samples.empty()) return s;
  std::vector<double> v(samples.begin(), samples.end());
  std::sort(v.begin(), v.end());
  s.count = v.size();
  s.min = v.front();
  s.max = v.back();
  s.p50 = percentile_sorted(v, 0.50);
  s.p90 = percentile_sorted(v, 0.90);
  s.p99 = percentile_sorted(v, 0.99);
  s.p999 = percentile_sorted(v, 0.999);
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / static_cast<double>(v.size());
  if (v.size() > 1) {
    double sq = 0;
    for (double x : v) sq += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(sq / static_cast<double>(v.size() - 1));
  }
  return s;
}

BandwidthSummary summarize_bandwidth(std::span<const int64_t> post_ns,
                                     std::span<const int64_t> complete_ns, uint64_t message_bytes,
                                     size_t window) {
  if (post_ns.size() != complete_ns.size()) {
    throw Error("summarize_bandwidth: post and completion counts differ");
  }
  BandwidthSummary b;
  const size_t n = post_ns.size();
  if (n == 0) return b;
  b.messages = n;
  b.bytes = n * message_bytes;
  const int64_t first = *std::min_element(post_ns.begin(), post_ns.end());
  const int64_t last = *std::max_element(complete_ns.begin(), complete_ns.end());
  b.seconds = static_cast<double>(last - first) * 1e-9;
  if (b.seconds > 0) {
    b.average_bps = static_cast<double>(b.bytes) / b.seconds;
    b.message_rate = static_cast<double>(n) / b.seconds;
  }
  // Unsignaled messages share the completion time of the one that retires them: count from
  // the instant message n/2 completed every message completed after it.
  const int64_t half = complete_ns[(n - 1) / 2];
  const auto after =
      std::count_if(complete_ns.begin(), complete_ns.end(), [half](int64_t t) { return t > half; });
  b.steady_bps = last > half ? static_cast<double>(static_cast<uint64_t>(after) * message_bytes) /
                                   (static_cast<double>(last - half) * 1e-9)
                             : b.average_bps;
  window = std::clamp<size_t>(window, 1, n);
  double best = 0;
  for (size_t i = 0; i + window <= n; ++i) {
    const int64_t span_ns = complete_ns[i + window - 1] - post_ns[i];
    if (span_ns > 0) {
      best = std::max(best, static_cast<double>(window * message_bytes) /
                                (static_cast<double>(span_ns) * 1e-9));
    }
  }
  b.peak_bps = std::max(best, b.average_bps);
  return b;
}

}  // namespace dlcnet
