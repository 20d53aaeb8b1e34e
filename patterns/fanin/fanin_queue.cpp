#include "patterns/fanin/fanin_queue.hpp"

#include <algorithm>
#include <cstdio>

#include "fabric/qdisc_json.hpp"
#include "fabric/qdisc_summary.hpp"

namespace dlcnet::fanin {

void add_queue(Analysis& a, const QueueSeries& q) {
  if (q.empty()) return;
  for (Iteration& it : a.iterations) {
    if (it.messages.empty()) continue;
    const auto t0 = static_cast<int64_t>(it.first_post_ns);
    const auto t1 = static_cast<int64_t>(it.last_arrival_ns);
    it.qdisc_start_bytes = static_cast<double>(fabric::backlog_at(q, t0).value_or(0));
    uint64_t peak = 0;
    for (const fabric::QdiscSample& s : q) {
      if (s.t_ns >= t0 && s.t_ns <= t1) peak = std::max(peak, s.backlog_bytes);
    }
    it.qdisc_peak_bytes =
        static_cast<double>(std::max<uint64_t>(peak, static_cast<uint64_t>(it.qdisc_start_bytes)));
    it.qdisc_drops = static_cast<int64_t>(fabric::drops_between(q, t0, t1));
  }
}

std::string queue_line(const QueueSeries& q) {
  const fabric::QdiscSummary s = fabric::summarize(q);
  char b[256];
  std::snprintf(b, sizeof b,
                "# qdisc: %zu samples at %.1f kHz (longest gap %.2f ms), peak backlog %.1f KiB "
                "(%u packets), %llu drops, %llu overlimits",
                s.samples, s.achieved_rate_hz * 1e-3, static_cast<double>(s.max_gap_ns) * 1e-6,
                static_cast<double>(s.peak_backlog_bytes) / 1024.0, s.peak_backlog_packets,
                static_cast<unsigned long long>(s.drops),
                static_cast<unsigned long long>(s.overlimits));
  return b;
}

nlohmann::json queue_json(const QueueSeries& q) {
  return {{"summary", fabric::summary_json(fabric::summarize(q))},
          {"series", fabric::series_json(q)}};
}

}  // namespace dlcnet::fanin
