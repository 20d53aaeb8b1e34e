// `dlc-bench ring` as a pattern on the runner (runner/runner.hpp): every rank agrees on the
// spec, connects to its ring neighbours (everyone for all-to-all; rank 0 to everyone for the
// clocks), runs every size's iterations (each size's times to rank 0 as it finishes, so its row
// prints at once); rank 0 analyses every step and reports.
#pragma once

#include <memory>

#include "patterns/ring/ring_spec.hpp"
#include "runner/nrank_options.hpp"
#include "runner/pattern.hpp"

namespace dlcnet::ring {

// Returns the exit code: 0, or 1 on every rank when any element was wrong (rank 0's verdict);
// throws Error on failure.
int run_rank(const RingSpec& spec, const runner::NRankOptions& n, int argc,
             const char* const* argv);

}  // namespace dlcnet::ring
