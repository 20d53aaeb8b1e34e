// What a rank measured, in the form rank 0 gathers to report: counts, its scheduling-error
// samples, each record's event time (for the statistics), and the messages it received as
// flows on rank 0's clock (one-way latency with its uncertainty bound).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/bytes.hpp"
#include "core/clock_model.hpp"
#include "flows/flow.hpp"
#include "replay/replay_engine.hpp"
#include "replay/replay_plan.hpp"

namespace dlcnet::replay {

struct RankReport {
  int32_t rank = 0;
  uint16_t node = 0;
  uint64_t entries = 0, sends = 0, receives = 0, unreplayable = 0, split = 0;
  uint64_t wrong = 0, busy = 0, records_written = 0;
  double start_ns = 0, end_ns = 0;  // on rank 0's clock
  // The replay's own time split: computing (the compute entries' think times, dag mode), and
  // communicating (a send from its post to its completion, a receive from the sender's post to
  // its arrival): each the union of its intervals, and the time both cover.
  double compute_s = 0, comm_s = 0, overlap_s = 0;
  std::vector<double> sched_error_s;  // per send
  std::vector<double> order_hold_s;   // per send held by channel order
  std::vector<int64_t> event_ns;      // per entry, own clock: send post / arrival; -1 none
  std::vector<Flow> flows;            // messages received
};

// The send post times of `plan` per peer, in channel order: what each receiver needs from
// this rank to compute one-way latencies (to_each[peer] for Bootstrap::alltoall).
std::vector<Bytes> encode_post_times(const RankPlan& plan, const EngineResult& r);

// Builds this rank's report. `from_each[p]` is what encode_post_times() gave at rank p;
// `clocks[r]` maps rank r's clock onto rank 0's.
RankReport make_rank_report(const RankPlan& plan, const EngineResult& r,
                            const std::vector<Bytes>& from_each,
                            std::span<const ClockModel> clocks);

Bytes encode_report(const RankReport& r);
RankReport decode_report(std::span<const uint8_t> data, int rank);

}  // namespace dlcnet::replay
