// Reading and checking a Chakra job: its files (one per rank), their nodes, each rank's
// dependency graph and the point-to-point messages between ranks.
#pragma once

#include <span>
#include <string>

#include "trace/chakra/chakra_model.hpp"
#include "trace/trace_diagnostics.hpp"

namespace dlcnet::trace::chakra {

struct LoadResult {
  Job job;
  Diagnostics diagnostics;
  double read_cpu_s = 0;  // CPU seconds of this thread reading and decoding the files
  bool ok() const noexcept { return diagnostics.errors() == 0; }
};

// Never throws for what the files hold: every problem is in the diagnostics (the text of at
// most `keep_per_problem` of each kind kept), the job holds what could be read. Process groups
// come from the files and from `comm_groups` (ASTRA-sim's communicator-group file, none when
// empty): chakra_groups.hpp.
LoadResult load_job(std::span<const std::string> inputs, size_t keep_per_problem = 10000,
                    const std::string& comm_groups = "");

// load_job() that throws Error with the first errors (file, node, field), as trace::read_job
// does for a SketchDLC or native job, unless the job is clean of errors.
Job read_job(std::span<const std::string> inputs, const std::string& comm_groups = "");

}  // namespace dlcnet::trace::chakra
