#include "fabric/qdisc_json.hpp"

#include "core/clock.hpp"

namespace dlcnet::fabric {
namespace {

// One column: field(sample) for every sample.
template <typename Field>
nlohmann::json column(std::span<const QdiscSample> s, Field field) {
  nlohmann::json a = nlohmann::json::array();
  for (const QdiscSample& x : s) a.push_back(field(x));
  return a;
}

}  // namespace

nlohmann::json series_json(std::span<const QdiscSample> s) {
  return {
      {"t_s", column(s, [](const QdiscSample& x) { return ns_to_s(x.t_ns); })},
      {"backlog_bytes", column(s, [](const QdiscSample& x) { return x.backlog_bytes; })},
      {"backlog_packets", column(s, [](const QdiscSample& x) { return x.backlog_packets; })},
      {"drops", column(s, [](const QdiscSample& x) { return x.drops; })},
      {"overlimits", column(s, [](const QdiscSample& x) { return x.overlimits; })},
      {"sent_bytes", column(s, [](const QdiscSample& x) { return x.sent_bytes; })},
  };
}

nlohmann::json summary_json(const QdiscSummary& s) {
  return {
      {"samples", s.samples},
      {"duration_s", s.duration_s},
      {"achieved_rate_hz", s.achieved_rate_hz},
      {"max_gap_s", ns_to_s(s.max_gap_ns)},
      {"peak_backlog_bytes", s.peak_backlog_bytes},
      {"peak_backlog_packets", s.peak_backlog_packets},
      {"peak_t_s", ns_to_s(s.peak_t_ns)},
      {"drops", s.drops},
      {"overlimits", s.overlimits},
      {"sent_bytes", s.sent_bytes},
      {"sent_packets", s.sent_packets},
  };
}

}  // namespace dlcnet::fabric
