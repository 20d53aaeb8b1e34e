// A predicted queue against a measured one (`dlc-compare queue MEASURED PREDICTED`,
// docs/compare.md "Queue monitors"). The prediction's time t is the measurement's t + offset:
// by default the measurement's flow.txt zero (the first post of the run, compare/
// queue_fanin.hpp), since the prediction ran on that flow.txt. Over the measured span
// [first sample, last sample] both series are read on a common grid of `grid_s`:
//   peak          the largest length in the span, measured and predicted (raw, not gridded),
//                 and its error (predicted - measured) / measured;
//   mean          the time-weighted mean over the span (the grid's mean) and its error;
//   mean |diff|   the mean over the grid of |predicted - measured|, bytes;
//   area ratio    predicted area over measured area (the ratio of the means);
//   rounds        per fan-in round (when the measurement gives them): the length at the
//                 round's first post and its peak until the round's last arrival, both sides.
#pragma once

#include <string>
#include <vector>

#include "compare/queue_fanin.hpp"
#include "compare/queue_series.hpp"

namespace dlcnet::compare {

struct QueueRoundResult {
  QueueRound round;
  double measured_start = 0, predicted_start = 0;  // bytes at the first post
  double measured_peak = 0, predicted_peak = 0;    // first post to last arrival
  double peak_error() const noexcept {
    return measured_peak > 0 ? (predicted_peak - measured_peak) / measured_peak : 0;
  }
};

struct QueueComparison {
  QueueSeries measured, predicted;  // predicted on the measured axis (shifted by offset_s)
  std::string measured_note, predicted_note;
  std::string explanation;  // a known reason the two differ (dlc-compare queue), or empty
  double offset_s = 0;
  std::string offset_from;  // "--offset-s", "flow_origin_s", "first round", "none"
  double t0_s = 0, t1_s = 0, grid_s = 0;
  QueueSample measured_peak, predicted_peak;  // within the span: max_bytes and its time
  double peak_error = 0;
  double measured_mean = 0, predicted_mean = 0, mean_error = 0;
  double mean_abs_diff = 0, area_ratio = 0;
  std::vector<QueueRoundResult> rounds;
  std::vector<double> grid_t, grid_measured, grid_predicted;  // grid_t on the measured axis
};

// `predicted` is on its own axis; it is shifted by `offset_s`. Throws Error when the measured
// series has fewer than two samples or grid_s is not positive; the grid is coarsened to at
// most 1 M points.
QueueComparison compare_queues(QueueSeries measured, QueueSeries predicted,
                               const std::vector<QueueRound>& rounds, double offset_s,
                               const std::string& offset_from, double grid_s);

}  // namespace dlcnet::compare
