#include "fabric/qdisc_summary.hpp"

#include <algorithm>

#include "core/clock.hpp"

namespace dlcnet::fabric {
namespace {

// A cumulative counter's increase (0 if it went back: the qdisc was replaced).
uint64_t increase(uint64_t from, uint64_t to) {
  return to >= from ? to - from : 0;
}

}  // namespace

QdiscSummary summarize(std::span<const QdiscSample> s) {
  QdiscSummary r;
  r.samples = s.size();
  if (s.empty()) return r;
  const QdiscSample& first = s.front();
  const QdiscSample& last = s.back();
  r.duration_s = ns_to_s(last.t_ns - first.t_ns);
  if (r.duration_s > 0) r.achieved_rate_hz = static_cast<double>(s.size() - 1) / r.duration_s;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0) r.max_gap_ns = std::max(r.max_gap_ns, s[i].t_ns - s[i - 1].t_ns);
    if (s[i].backlog_bytes > r.peak_backlog_bytes) {
      r.peak_backlog_bytes = s[i].backlog_bytes;
      r.peak_t_ns = s[i].t_ns;
    }
    r.peak_backlog_packets = std::max(r.peak_backlog_packets, s[i].backlog_packets);
  }
  if (r.peak_backlog_bytes == 0) r.peak_t_ns = first.t_ns;
  r.drops = increase(first.drops, last.drops);
  r.overlimits = increase(first.overlimits, last.overlimits);
  r.sent_bytes = increase(first.sent_bytes, last.sent_bytes);
  r.sent_packets = increase(first.sent_packets, last.sent_packets);
  return r;
}

std::optional<QdiscSample> sample_at(std::span<const QdiscSample> s, int64_t t_ns) {
  const auto after = std::upper_bound(s.begin(), s.end(), t_ns,
                                      [](int64_t t, const QdiscSample& x) { return t < x.t_ns; });
  if (after == s.begin()) return std::nullopt;
  return *(after - 1);
}

std::optional<uint64_t> backlog_at(std::span<const QdiscSample> s, int64_t t_ns) {
  const auto x = sample_at(s, t_ns);
  if (!x) return std::nullopt;
  return x->backlog_bytes;
}

uint64_t drops_between(std::span<const QdiscSample> s, int64_t t0_ns, int64_t t1_ns) {
  if (s.empty() || t1_ns <= t0_ns) return 0;
  const QdiscSample a = sample_at(s, t0_ns).value_or(s.front());
  const QdiscSample b = sample_at(s, t1_ns).value_or(s.front());
  return increase(a.drops, b.drops);
}

}  // namespace dlcnet::fabric
