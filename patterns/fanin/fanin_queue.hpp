// The real queue beside the latency-derived one: rank 0 samples the bottleneck's qdisc
// (fabric/qdisc_sampler.hpp, on rank 0's own clock, which is the reference) and each
// iteration gets the backlog at its first post, the peak until its last arrival and the drops.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fabric/qdisc_sampler.hpp"
#include "patterns/fanin/fanin_analysis.hpp"

namespace dlcnet::fanin {

using QueueSampler = fabric::QdiscSampler;
using QueueSeries = std::vector<fabric::QdiscSample>;

void add_queue(Analysis& a, const QueueSeries& q);
// "# qdisc: 41230 samples at 10.0 kHz (longest gap 0.4 ms), peak backlog 250.1 KiB, 70 drops"
std::string queue_line(const QueueSeries& q);
// {"summary": ..., "series": ...} (fabric/qdisc_json.hpp).
nlohmann::json queue_json(const QueueSeries& q);

}  // namespace dlcnet::fanin
