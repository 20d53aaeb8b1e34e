// A DLC job as GOAL text, the schedule format of ATLAHS's LogGOPSim and htsim backends
// (spcl/LogGOPSim, Schedgen's writer): `num_ranks N`, then per rank `rank R { ... }` with
// labelled operations `lI: send Sb to D tag T`, `lI: recv Sb from S tag T`, `lI: calc NS` and
// dependencies `lA requires lB`. It is the replay's own plan (replay_plan.hpp) written out:
// the same ranks, the same messages in the same channel order, the same dependencies and
// think times (dag mode), so a dependency-driven simulator runs exactly the job dlc-replay
// replays.
//   - a message is one operation, whatever the replay's part size;
//   - tag = the message's position on its channel (the k-th send from S to D matches the k-th
//     receive of D from S, as the replay posts them);
//   - a send's think time becomes a `calc` that requires the send's dependencies and that the
//     send requires (times in ns, LogGOPSim's unit); a receive requires its dependencies
//     directly (the replay completes it at its arrival or its dependencies, the later);
//   - a record whose other end is not replayed (a node without its file) becomes `calc 0`, so
//     the dependencies through it stay.
#pragma once

#include <ostream>

#include "replay/replay_options.hpp"
#include "replay/replay_rank_map.hpp"
#include "replay/replay_timeline.hpp"
#include "trace/trace_model.hpp"

namespace dlcnet::replay {

struct GoalCounts {
  uint64_t sends = 0, recvs = 0, calcs = 0, requires_ = 0;
};

GoalCounts write_goal(std::ostream& out, const trace::Job& job, const RankMap& map,
                      const PlanOptions& options, const Copies& copies);

}  // namespace dlcnet::replay
