// What `dlc-compare queue` reports (compare/queue_compare.hpp): a console summary, a JSON
// document (`dlcnet.compare-queue/1`, docs/compare.md) and the two series on the common grid
// as CSV (`t_s,measured_bytes,predicted_bytes`, t_s from flow.txt's zero: the measured axis
// minus the offset) for plots.
#pragma once

#include <ostream>

#include <nlohmann/json_fwd.hpp>

#include "compare/queue_compare.hpp"

namespace dlcnet::compare {

inline constexpr const char* kQueueSchema = "dlcnet.compare-queue/1";

void print_queue_comparison(std::ostream& out, const QueueComparison& c);
nlohmann::json queue_comparison_json(const QueueComparison& c);
void write_queue_csv(std::ostream& out, const QueueComparison& c);

}  // namespace dlcnet::compare
