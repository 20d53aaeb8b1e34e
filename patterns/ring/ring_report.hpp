// How `dlc-bench ring` shows its results: nccl-tests' table, streamed a row per size as the
// size finishes, its footer, the per-step view of one size, and the JSON (dlcnet.ring/1).
// GB/s are 1e9 bytes per second, as nccl-tests prints them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/table.hpp"
#include "patterns/ring/ring_analysis.hpp"
#include "patterns/ring/ring_spec.hpp"

namespace dlcnet::ring {

class RingTable {
 public:
  explicit RingTable(std::ostream& out);
  void header();
  void row(const Row& r);

 private:
  std::ostream& out_;
  Table table_;
};

// "# Out of bounds values : 0 OK" and "# Avg bus bandwidth    : 1.23 GB/s", as nccl-tests.
void print_footer(std::ostream& out, const std::vector<Row>& rows);
// Every step of one size: latency p50 and p99, the slowest link and its median.
void print_steps(std::ostream& out, const SizeResult& s);

nlohmann::json size_json(const SizeResult& s);
// The whole report but the context: {"schema", "collective", "ranks", ..., "sizes",
// "wrong_total", "avg_busbw_GBps"}.
nlohmann::json ring_json(const RingSpec& spec, int ranks, const std::vector<SizeResult>& sizes);

}  // namespace dlcnet::ring
