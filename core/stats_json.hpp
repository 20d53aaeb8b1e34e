// The one JSON shape of a LatencySummary, for every tool's report (dlc-bench, dlc-trace,
// dlc-replay): {"count", "min", "p50", "p90", "p99", "p99_9", "max", "mean", "stdev"}, in
// the summary's own units (seconds for times; ratios for ratios). Tools put their extra keys
// (histograms, bounds) next to the summary, never inside it.
#pragma once

#include <array>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/stats.hpp"

namespace dlcnet {

// The keys of latency_summary_json, in order.
inline constexpr std::array<std::string_view, 9> kLatencySummaryKeys = {
    "count", "min", "p50", "p90", "p99", "p99_9", "max", "mean", "stdev"};

nlohmann::json latency_summary_json(const LatencySummary& s);

}  // namespace dlcnet
