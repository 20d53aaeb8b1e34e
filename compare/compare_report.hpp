// What `dlc-compare MEASURED PREDICTED` reports: the per-message error summary, the groups'
// span errors, the worst messages with their context; as a console summary, a JSON document
// (`dlcnet.compare/1`, docs/compare.md) and one CSV line per message for plots.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "compare/error_stats.hpp"
#include "compare/fct_join.hpp"
#include "compare/group_errors.hpp"
#include "compare/repeatability.hpp"

namespace dlcnet::compare {

struct Comparison {
  std::string measured_file, predicted_file, tool, group_kind;
  double ack_ns = 0;
  bool free_starts = false;  // the prediction chose its own starts (dependency-driven)
  Join join;
  ErrorSummary messages;
  std::vector<GroupError> groups;
  LatencySummary group_abs_error;  // |e| over the groups
  Repeatability repeat;            // the measurement against itself, group to group
};

Comparison compare(const FlowMap& map, const std::string& measured_file,
                   std::span<const FctRecord> fct, const std::string& predicted_file, double ack_ns,
                   bool free_starts = false);

void print_comparison(std::ostream& out, const Comparison& c);
nlohmann::json comparison_json(const Comparison& c);
// src,dst,sport,size,group,start_s,measured_fct_s,predicted_fct_s,error
void write_comparison_csv(std::ostream& out, const Comparison& c);

}  // namespace dlcnet::compare
