// libFuzzer target: one trace file, whatever its format, through the whole load (format sniff,
// SketchDLC header and rows or the native CSV, dependencies, matching, cycles), then the
// statistics of what loaded. The first byte picks the file's name: a SketchDLC data file, a
// scheduler-message file, or a native .csv in a job directory.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "tests/fuzz/fuzz_input_file.hpp"
#include "trace/trace_loader.hpp"
#include "trace/trace_stats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kNames[] = {"trace_record.txt", "trace_sch_record.txt", "job.csv"};
  const char* name = kNames[data[0] % 3];
  const std::string path = dlcnet::fuzz::input_file(data + 1, size - 1, name);
  dlcnet::trace::LoadOptions lo;
  lo.keep_per_problem = 4;
  const std::vector<std::string> inputs{path};
  const dlcnet::trace::LoadResult res = dlcnet::trace::load_job(inputs, lo);
  // Every diagnostic names the file (and, for a row, its line).
  for (const dlcnet::trace::Diagnostic& d : res.diagnostics.kept()) {
    if (d.file.empty()) __builtin_trap();
  }
  if (!res.job.nodes.empty()) (void)dlcnet::trace::compute_stats(res.job);
  return 0;
}
