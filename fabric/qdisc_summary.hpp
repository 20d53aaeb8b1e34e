// What a series of qdisc samples says: pure functions over samples in time order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "fabric/qdisc_sample.hpp"

namespace dlcnet::fabric {

struct QdiscSummary {
  size_t samples = 0;
  double duration_s = 0;        // first to last sample
  double achieved_rate_hz = 0;  // (samples - 1) / duration_s
  int64_t max_gap_ns = 0;       // longest interval between two consecutive samples
  uint64_t peak_backlog_bytes = 0;
  uint32_t peak_backlog_packets = 0;
  int64_t peak_t_ns = 0;  // when the byte backlog peaked (first time)
  // Counter increases from the first to the last sample.
  uint64_t drops = 0;
  uint64_t overlimits = 0;
  uint64_t sent_bytes = 0;
  uint64_t sent_packets = 0;
};

QdiscSummary summarize(std::span<const QdiscSample> s);

// The last sample taken at or before t_ns; nothing before the first sample.
std::optional<QdiscSample> sample_at(std::span<const QdiscSample> s, int64_t t_ns);

// The byte backlog at t_ns (of sample_at); nothing before the first sample.
std::optional<uint64_t> backlog_at(std::span<const QdiscSample> s, int64_t t_ns);

// Drops counted between t0_ns and t1_ns: the counter of sample_at(t1) minus that of
// sample_at(t0), where a time before the first sample reads the first sample. 0 for an empty
// series or t1_ns <= t0_ns.
uint64_t drops_between(std::span<const QdiscSample> s, int64_t t0_ns, int64_t t1_ns);

}  // namespace dlcnet::fabric
