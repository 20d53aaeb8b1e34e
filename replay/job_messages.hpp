// A replayed job as the reference model's messages with their dependencies (model/message.hpp),
// so the model predicts the job the way dlc-replay runs it rather than a flat list of measured
// post times (docs/compare.md, "A replay predicted from its dependencies"). It is the replay's
// own plan (replay_plan.hpp), every rank's, resolved into messages:
//   - a message is a replayed send (whatever the replay's part size), from its rank to its peer;
//   - it waits for the messages its dependencies stand for and is posted its think time (dag
//     mode) after the last of them has arrived: a dependency on a receive stands for the
//     message that receive takes (the k-th send of the peer to this rank on the channel) and for
//     the receive's own dependencies; a dependency on a send stands for that message's arrival
//     (the replay releases it at the send's completion: up to one latency earlier); a compute
//     entry (a Chakra job's compute node) stands for its dependencies plus its duration, on
//     every path through it (Message::after_delay_s, and not_before_s for the paths from the
//     rank's start); a record not replayed stands for its dependencies;
//   - a message is posted no earlier than the one before it on its channel (Message::follows):
//     the replay posts a rank's sends to one peer in the order of its timeline;
//   - in timed mode a message is posted at its planned time and waits for nothing else.
#pragma once

#include <cstdint>
#include <vector>

#include "model/message.hpp"
#include "replay/replay_plan.hpp"

namespace dlcnet::replay {

struct JobMessages {
  std::vector<model::Message> messages;
  // Per message, its name in the replay's records and flow map: key and the sender's opnum.
  std::vector<int32_t> key, opnum;
};

// Every rank's plan (plans[r]: rank r's) resolved into messages. Throws Error when a dependency
// points forward in its timeline (no plan builder does).
JobMessages plan_messages(const std::vector<RankPlan>& plans, Mode mode);

// A SketchDLC or native job: every rank's build_rank_plan(), resolved.
JobMessages job_messages(const trace::Job& job, const RankMap& map, const PlanOptions& options,
                         const Copies& copies);

}  // namespace dlcnet::replay
