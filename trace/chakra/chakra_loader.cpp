#include "trace/chakra/chakra_loader.hpp"

#include <time.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "trace/chakra/chakra_files.hpp"
#include "trace/chakra/chakra_graph.hpp"
#include "trace/chakra/chakra_groups.hpp"
#include "trace/chakra/chakra_match.hpp"
#include "trace/chakra/chakra_native.hpp"
#include "trace/chakra/chakra_reader.hpp"

namespace dlcnet::trace::chakra {
LoadResult load_job(std::span<const std::string> inputs, size_t keep_per_problem,
                    const std::string& comm_groups) {
  LoadResult res{Job{}, Diagnostics(keep_per_problem), 0};
  Diagnostics& diag = res.diagnostics;
  // Native CSV version 2 files, or else .et files.
  const bool native = is_native_job_input(inputs);
  const std::vector<std::string> csv_files =
      native ? find_native_job_files(inputs, diag) : std::vector<std::string>{};
  const std::vector<EtFile> files =
      native ? std::vector<EtFile>{} : find_chakra_files(inputs, diag);
  const double t0 = thread_cpu_s();
  if (native) read_native_job(csv_files, res.job, diag);
  for (const EtFile& f : files) {
    Rank r;
    read_rank_file(f.path, f.rank, r, diag);
    res.job.ranks.push_back(std::move(r));
  }
  res.read_cpu_s = thread_cpu_s() - t0;
  if (!files.empty()) res.job.world = files.back().rank + 1;
  GraphCheck check_graph;
  for (const Rank& r : res.job.ranks) check_graph(r, diag);
  resolve_groups(res.job, comm_groups, diag);
  check_messages(res.job, diag);
  return res;
}

Job read_job(std::span<const std::string> inputs, const std::string& comm_groups) {
  LoadResult res = load_job(inputs, 20, comm_groups);
  if (!res.ok()) {
    throw Error("Chakra job rejected: " + std::to_string(res.diagnostics.errors()) + " errors\n" +
                res.diagnostics.first_errors(5));
  }
  return std::move(res.job);
}

}  // namespace dlcnet::trace::chakra
