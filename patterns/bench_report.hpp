// Reporters for dlc-bench results: perftest-style console table and the JSON document.
#pragma once

#include <ostream>
#include <string>

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

// {"test": {...spec...}, "results": [...], "complete": bool} in seconds, bytes and bytes per
// second. A sweep that failed (`error` not empty) has "complete": false and "error": the
// cause, with the results of the sizes measured before it.
nlohmann::json bench_json(const BenchResult& r, const std::string& error = {});

}  // namespace dlcnet
