// `dlc-bench ring --records`: every message of the measured iterations in the common record
// schema (core/record.hpp), one file per rank. A send (or write) row per message (segment) out,
// with its post and completion; a recv row per message in, with its arrival. key = the step,
// opnum =
// the measured iteration's number in the whole run (size index x -n + iteration).
#pragma once

#include <vector>

#include "core/record.hpp"
#include "patterns/ring/collective.hpp"
#include "patterns/ring/ring_times.hpp"

namespace dlcnet::ring {

// Size `k`'s records (`plan` and `times`: this rank's), numbered on from `seq`. The pattern
// writes each size as it completes, so a rank killed later keeps them, and after a failure the
// iterations of the size it was in.
void write_size_records(RecordWriter& w, const RingSpec& spec, int rank, size_t k, const Plan& plan,
                        const SizeTimes& times, uint64_t& seq);

}  // namespace dlcnet::ring
