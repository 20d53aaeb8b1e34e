// Reporters for dlc-bench results: perftest-style console table and the JSON document.
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "patterns/harness.hpp"

namespace dlcnet {

// Prints the header (column names, units line) once, then one row per size as they come.
class BenchTablePrinter {
 public:
  BenchTablePrinter(std::ostream& out, BenchKind kind) : out_(out), kind_(kind) {}
  void header();
  void row(const SizeResult& r);

 private:
  std::ostream& out_;
  BenchKind kind_;
};

// {"test": {...spec...}, "results": [...]} in seconds, bytes and bytes per second.
nlohmann::json bench_json(const BenchResult& r);

}  // namespace dlcnet
