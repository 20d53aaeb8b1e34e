// libFuzzer target: one native CSV file of version 2 (an any-rank job, read as a Chakra job)
// through read_native_job (the magic, `ranks=N`, the columns, every field of every line), then
// each rank's dependency graph, the message checks and the statistics.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_input_file.hpp"
#include "trace/chakra/chakra_graph.hpp"
#include "trace/chakra/chakra_match.hpp"
#include "trace/chakra/chakra_native.hpp"
#include "trace/chakra/chakra_stats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dlcnet::trace;
  const std::vector<std::string> files{dlcnet::fuzz::input_file(data, size, "job.csv")};
  Diagnostics diag(4);
  chakra::Job job;
  chakra::read_native_job(files, job, diag);
  for (const chakra::Rank& r : job.ranks) chakra::check_graph(r, diag);
  chakra::check_messages(job, diag);
  // Every diagnostic names the file; a line's names its line (those of the file as a whole,
  // such as an I/O error, line 0).
  for (const Diagnostic& d : diag.kept()) {
    if (d.file != files[0]) __builtin_trap();
  }
  if (job.world < 0 || job.ranks.size() != static_cast<size_t>(job.world)) __builtin_trap();
  chakra::CollectiveOptions options;
  options.root = job.world > 0 ? job.world - 1 : 0;
  if (job.world > 0) (void)chakra::compute_stats(job, options);
  return 0;
}
