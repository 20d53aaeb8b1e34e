// How far a prediction is from a measurement, message by message: pure arithmetic over matched
// pairs (compare/fct_join.hpp makes them), no I/O.
//   signed relative error  e = (predicted - measured) / measured: > 0 the prediction is slow;
//   MAPE                   the mean of |e|, in percent;
//   KS distance            the Kolmogorov-Smirnov statistic of the two latency distributions:
//                          the largest gap between their empirical CDFs (0 same, 1 disjoint);
//   worst                  the messages with the largest |e|, with their context.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/stats.hpp"

namespace dlcnet::compare {

struct Matched {
  uint32_t src = 0, dst = 0, sport = 0;
  uint64_t bytes = 0;
  double start_ns = 0;            // the measurement's start
  double predicted_start_ns = 0;  // the prediction's (= start_ns unless it chose its own)
  double measured_ns = 0;         // fct measured
  double predicted_ns = 0;        // fct predicted
  double ack_ns = 0;              // the fct's acknowledgement: arrival = start + fct - ack_ns
  int32_t group = -1, key = -1, opnum = 0;  // the message's context (flows/flow_map.hpp)
  double error() const noexcept {
    return measured_ns > 0 ? (predicted_ns - measured_ns) / measured_ns : 0;
  }
};

struct ErrorSummary {
  uint64_t count = 0;
  LatencySummary signed_error;  // e over every message (min, p50, p90, p99, max...)
  LatencySummary abs_error;     // |e|
  double mape_pct = 0;
  double ks = 0;
  LatencySummary measured_s, predicted_s;
  std::vector<Matched> worst;  // largest |e| first
};

ErrorSummary summarize_errors(std::span<const Matched> m, size_t worst = 10);

// The two-sample Kolmogorov-Smirnov statistic (any order, copies sorted); 0 when either is
// empty.
double ks_distance(std::vector<double> a, std::vector<double> b);

}  // namespace dlcnet::compare
