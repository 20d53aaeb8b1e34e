// A fan-in run's reports: the console table (one row per iteration and a summary row) and the
// JSON of the analysis.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "patterns/fanin/fanin_analysis.hpp"

namespace dlcnet::fanin {

// The summary over the measured (incast) iterations: medians of the per-iteration figures,
// slowdown and latency percentiles over every message.
struct Summary {
  uint32_t iterations = 0;
  double bound_ns = 0;  // the largest clock bound of a BCT among them
  double bct_ns = 0, bct_over_limit = 0, goodput_Bps = 0, jain = 0, skew_ns = 0;
  LatencySummary latency, slowdown;
  double queue_start_bytes = 0, queue_peak_bytes = 0;
  double qdisc_start_bytes = -1, qdisc_peak_bytes = -1;
};
Summary summarise(const Analysis& a);

void print_fanin(std::ostream& out, const FaninSpec& spec, const Analysis& a,
                 const std::string& headline);

nlohmann::json fanin_json(const FaninSpec& spec, const Analysis& a);

}  // namespace dlcnet::fanin
