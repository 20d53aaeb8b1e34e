// Reporters for dlc-bench results: perftest-style console table and the JSON document.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "patterns/p2p/harness.hpp"

namespace dlcnet {

// perftest's bandwidth units: MB/sec (1 MB = 2^20 bytes) by default, Gb/sec (10^9 bits) with
// --report_gbits.
enum class BwUnit : uint8_t { mb_per_s, gb_per_s };
const char* to_string(BwUnit u) noexcept;  // "MB/sec" or "Gb/sec"

// Prints the header (column names, units line) once, then one row per size as they come.
class BenchTablePrinter {
 public:
  BenchTablePrinter(std::ostream& out, BenchKind kind, BwUnit unit = BwUnit::mb_per_s)
      : out_(out), kind_(kind), unit_(unit) {}
  void header();
  void row(const SizeResult& r);
  // -H: every latency sample of the size, "index, usec" lines after a comment line.
  void samples(const SizeResult& r);
  BwUnit unit() const noexcept { return unit_; }

 private:
  std::ostream& out_;
  BenchKind kind_;
  BwUnit unit_;
};

// {"test": {...spec...}, "results": [...], "complete": bool} in seconds, bytes and bytes per
// second (bandwidth also in MB/s and Gb/s); "test"."console_bw_unit" names the console's unit.
// A sweep that failed (`error` not empty) has "complete": false and "error": the cause, with
// the results of the sizes measured before it.
nlohmann::json bench_json(const BenchResult& r, BwUnit unit = BwUnit::mb_per_s,
                          const std::string& error = {});

}  // namespace dlcnet
