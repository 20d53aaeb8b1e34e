// `dlc-bench ring --records`: every message of the measured iterations in the common record
// schema (core/record.hpp), one file per rank. A send (or write) row per message out, with its
// post and completion; a recv row per message in, with its arrival. key = the step, opnum =
// the measured iteration's number in the whole run (size index x -n + iteration).
#pragma once

#include <vector>

#include "core/record.hpp"
#include "patterns/ring/collective.hpp"
#include "patterns/ring/ring_times.hpp"

namespace dlcnet::ring {

// `plans[k]` and `times[k]`: this rank's plan and times of size k.
void write_records(RecordWriter& w, const RingSpec& spec, int rank, const std::vector<Plan>& plans,
                   const std::vector<SizeTimes>& times);

}  // namespace dlcnet::ring
