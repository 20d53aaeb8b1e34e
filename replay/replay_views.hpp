// The replayed job as a trace: every replayed record with its replay iteration and either the
// time the replay measured or the trace's own time, so that dlc-trace's statistics
// (trace::compute_stats) describe the replay and the original alike, side by side.
#pragma once

#include <span>

#include "replay/replay_rank_map.hpp"
#include "replay/replay_results.hpp"
#include "replay/replay_timeline.hpp"

namespace dlcnet::replay {

enum class ViewTimes { trace, replay };

// Records of every rank's timeline that the replay carried (event_ns >= 0 in its report),
// timed as asked. Replay times are each rank's own clock, as a trace's are each node's.
// Throws Error if a report does not fit its rank's timeline.
trace::Job replay_view(const trace::Job& job, const RankMap& map, const Copies& copies,
                       std::span<const RankReport> reports, ViewTimes times);

}  // namespace dlcnet::replay
