// A DLC job (SketchDLC, native or synthetic: trace/trace_model.hpp) as a Chakra job
// (trace/chakra/chakra_model.hpp), for `dlc-trace convert --to chakra` (docs/chakra.md,
// "Writing Chakra"). It is the replay's own plan (replay_plan.hpp, dag mode) written out, as
// the GOAL writer does: the same ranks (RankMap's default: workers 0..W-1, then servers
// W..W+S-1; the scheduler is not a rank), the same messages, dependencies and think times, so
// that ASTRA-sim and `dlc-replay DIR` on the Chakra job run the job `dlc-replay` replays:
//   - each message is a COMM_SEND_NODE at its sender and a COMM_RECV_NODE at its receiver,
//     comm_tag = its position on the (sender, receiver) channel: every (src, dst, tag) holds one
//     message, so Chakra's pairing (the n-th send of a triple with the n-th receive) pairs
//     exactly the messages the SketchDLC matcher paired;
//   - a send's think time (dTime, x --time-scale) is a COMP_NODE of that many microseconds
//     (rounded to the nearest; none when it rounds to 0) between the send's dependencies and
//     the send; a receive's dTime is not carried (the replay completes a receive at its arrival);
//   - the record's dependencies are data_deps (what every ASTRA-sim version resolves);
//   - start_time_micros: the record's time stamp (the node's first one plus the offset scaled,
//     rounded to the microsecond), 0 when the trace has none;
//   - a record whose other end is not replayed (its iteration cut away, or its peer's file
//     missing under --force) is a COMP_NODE of 0 us, so the dependencies through it stay.
// Node ids count from 0 per rank in file order; names carry the operation and the trace's
// OP_ID ("Push_Send_Worker 3-5-s0").
#pragma once

#include <functional>

#include "replay/replay_options.hpp"
#include "trace/chakra/chakra_model.hpp"
#include "trace/trace_model.hpp"

namespace dlcnet::replay {

// Each rank of the Chakra job, rank 0 first, to `each` (one rank held at a time: a job of
// millions of records is written without holding it twice). `options`: iterations (0: the
// trace's) and time_scale; the mode is dag whatever it says. Throws Error as the replay would
// refuse the job (a worker or server without its file, a loop that does not fit).
void chakra_ranks_from_dlc(const trace::Job& job, const PlanOptions& options,
                           const std::function<void(const trace::chakra::Rank&)>& each);

}  // namespace dlcnet::replay
