// JSON forms of a qdisc series and of its summary.
#pragma once

#include <nlohmann/json.hpp>
#include <span>

#include "fabric/qdisc_sample.hpp"
#include "fabric/qdisc_summary.hpp"

namespace dlcnet::fabric {

// Column arrays, one entry per sample: {"t_s": [...], "backlog_bytes": [...],
// "backlog_packets": [...], "drops": [...], "overlimits": [...], "sent_bytes": [...]}. t_s is
// now_ns() in seconds (the same clock as every other record of the host).
nlohmann::json series_json(std::span<const QdiscSample> s);

nlohmann::json summary_json(const QdiscSummary& s);

}  // namespace dlcnet::fabric
