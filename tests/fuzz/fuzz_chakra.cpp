// libFuzzer target: one Chakra ET file (length-delimited GlobalMetadata and Nodes) through the
// reader, then the rank's dependency graph, its process groups (the metadata node's JSON), the
// message checks and the statistics. The first
// byte picks the job's size (1 to 8 ranks) and the file's rank in it; the rest is the file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "trace/chakra/chakra_graph.hpp"
#include "trace/chakra/chakra_groups.hpp"
#include "trace/chakra/chakra_match.hpp"
#include "trace/chakra/chakra_reader.hpp"
#include "trace/chakra/chakra_stats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dlcnet::trace;
  if (size == 0) return 0;
  const int32_t world = 1 + (data[0] & 7);
  const int32_t rank = (data[0] >> 3) % world;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  Diagnostics diag(4);
  chakra::Job job;
  job.world = world;
  job.ranks.emplace_back();
  chakra::read_rank(bytes, "fuzz.et", rank, job.ranks.back(), diag);
  chakra::check_graph(job.ranks.back(), diag);
  chakra::resolve_groups(job, "", diag);
  chakra::check_messages(job, diag);
  // Every diagnostic names the file.
  for (const Diagnostic& d : diag.kept()) {
    if (d.file.empty()) __builtin_trap();
  }
  chakra::CollectiveOptions options;
  options.root = world - 1;
  (void)chakra::compute_stats(job, options);
  return 0;
}
