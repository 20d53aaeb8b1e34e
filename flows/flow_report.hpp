// The reports every tool that aligns clocks and moves messages shares (dlc-replay and
// dlc-bench's N-rank patterns, fanin and ring): each rank's clock against rank 0's with its
// bound, how the ranks started, and one-way latency per (sender, receiver) pair, as JSON and as
// console lines and tables. Seconds in JSON; printers convert.
#pragma once

#include <ostream>
#include <span>

#include <nlohmann/json.hpp>

#include "core/clock_sync.hpp"
#include "core/release_report.hpp"
#include "flows/pair_latency.hpp"

namespace dlcnet {

// Per rank: method (reference, clock_monotonic, ping_pong), offset_s at rank 0's time at_s,
// drift, uncertainty_s and both ping-pong estimates (docs/replay.md, "Reports").
nlohmann::json clocks_json(std::span<const ClockReport> clocks);
// Per pair: src, dst, messages, bytes, one_way_s (the latency summary), uncertainty_s.
nlohmann::json pairs_json(std::span<const PairLatency> pairs);

// "# clock of rank ..." lines (ranks on rank 0's kernel in one line) and "# release: ...".
void print_clocks(std::ostream& out, std::span<const ClockReport> clocks,
                  const ReleaseReport& release);
// The one-way latency table.
void print_pairs(std::ostream& out, std::span<const PairLatency> pairs);

}  // namespace dlcnet
