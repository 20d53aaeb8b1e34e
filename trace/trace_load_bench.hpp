// How fast a job loads and how much memory it takes (dlc-trace bench-load, bench/trace_load.sh):
// the load timed, the bytes read, the model's size and what it is made of, the process's peak
// resident set, and the CPU time of each step of the load.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "trace/trace_loader.hpp"

namespace dlcnet::trace {

struct LoadBench {
  LoadResult result;
  uint64_t input_bytes = 0;       // the job's files (those that have a size)
  double seconds = 0;             // wall time of load_job()
  uint64_t rss_before_bytes = 0;  // peak resident set before the load
  uint64_t peak_rss_bytes = 0;    // and after it
};

// This process's peak resident set so far.
uint64_t peak_rss_bytes();

// Loads the job and measures it.
LoadBench bench_load(std::span<const std::string> inputs);

// The measurements as JSON: records, messages, input bytes, load time and rates, model bytes
// and their breakdown, peak RSS, CPU seconds per step and diagnostics (no context, no inputs).
nlohmann::json load_bench_json(const LoadBench& b);

}  // namespace dlcnet::trace
