// Statistics as pure functions over samples in SI units (seconds, bytes). No unit conversion
// here: printers convert. Every sample counts (perftest drops the two largest; we do not).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace dlcnet {

struct LatencySummary {
  uint64_t count = 0;
  double min = 0, p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0;
  double mean = 0;
  double stdev = 0;  // sample standard deviation (n-1), computed in double, two-pass
};

// Nearest-rank percentile of sorted samples: the smallest sample such that at least p of all
// samples are <= it (index ceil(p*n)-1). p in [0,1]. Returns 0 for no samples.
double percentile_sorted(std::span<const double> sorted, double p);

// The median of `samples` (any order): the middle one, or the mean of the two middle ones; 0
// for no samples.
double median(std::vector<double> samples);

// Summarises `samples` (any order; copied and sorted). Empty input gives count 0 and zeros.
LatencySummary summarize_latency(std::span<const double> samples);

struct BandwidthSummary {
  uint64_t messages = 0;
  uint64_t bytes = 0;
  double seconds = 0;      // first post to last completion
  double average_bps = 0;  // bytes per second over the whole run
  double peak_bps = 0;     // best window of `window` consecutive completions
  // The run's second half: the bytes completed after message n/2's completion, over the time
  // from it to the last completion. Once the sender's buffers are full its completions advance
  // at the path's rate; the average also counts what the buffers took ahead at the start.
  double steady_bps = 0;
  double message_rate = 0;  // messages per second over the whole run
};

// post_ns[i] and complete_ns[i] are message i's post and completion times (ns, one clock).
// The peak is the best rate over any `window` consecutive messages (first post in the window
// to last completion in it); window is clamped to [1, n]. The steady rate is the average when
// the second half has no span (one message, or every completion at one instant).
BandwidthSummary summarize_bandwidth(std::span<const int64_t> post_ns,
                                     std::span<const int64_t> complete_ns, uint64_t message_bytes,
                                     size_t window);

}  // namespace dlcnet
