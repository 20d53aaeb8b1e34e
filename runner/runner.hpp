// The runner: one rank of an N-rank tool from start to end, the sequence written once, as
// nccl-tests' common.cu runs its tests. The pattern (runner/pattern.hpp) supplies only what is
// its own. In order, on every rank:
//   1. the calibration read (--fct needs it) and the job joined (launch/job.hpp);
//   2. the outputs opened (--json, --records, --fct, --export-flows): an unwritable path fails
//      the job before anything is measured; the star's links read (rank 0);
//   3. the transport opened with the receives the pattern needs, the thread bound (--cpu);
//   4. the agreement: every rank runs the same pattern, and the largest message all carry;
//   5. the registered memory checked through the one rule (core/memory_budget.hpp), allocated;
//   6. connect, clocks before, the pattern prepared, release, the pattern's run;
//   7. on a failure: settled with the other ranks (the job's first cause), every rank's records
//      of what completed, at rank 0 the JSON marked incomplete; then the error;
//   8. clocks after, gather at rank 0; rank 0's console (the pattern's lines, then one tail:
//      star links, clocks, job phases) and one JSON envelope around the pattern's keys:
//      complete, context, clock, release, phases_s, setup, star_links, flow_origin_s, files;
//   9. records, flows and reports written (each even when another failed); every rank exits
//      with rank 0's verdict.
#pragma once

#include <memory>
#include <string>

#include "runner/nrank_options.hpp"
#include "runner/pattern.hpp"

namespace dlcnet::runner {

// `tool` names the run in messages and the JSON ("dlc-bench fanin"). Returns the exit code (rank
// 0's verdict on every rank); throws Error on failure.
int run_rank(const NRankOptions& o, const std::string& tool, Pattern& pattern, int argc,
             const char* const* argv);

}  // namespace dlcnet::runner
