// One rank's replay plan (replay_plan.hpp) from a Chakra job (trace/chakra/, docs/chakra.md,
// "Replay"): a rank per file, its nodes in dependency order, each one or more plan entries:
//   - COMM_SEND_NODE / COMM_RECV_NODE: a send to comm_dst / a receive from comm_src, paired as
//     dlc-trace validate pairs them (trace/chakra/chakra_match.hpp);
//   - COMM_COLL_NODE: a start entry, the point-to-point steps of its algorithm
//     (trace/chakra/chakra_collectives.hpp) and an end entry; the start waits for the node's
//     dependencies, a step's receive and a round-0 send for the start, a later round's send for
//     the receives of the round before, the end for every step; what depends on the node waits
//     for the end. The steps run among the ranks of the node's process group, and the k-th
//     collective of a group on a rank meets the k-th of the group on every other member;
//   - every other node (COMP_NODE, memory, metadata...): a compute entry that completes its
//     duration (dag mode, scaled) after its dependencies.
// Messages are named in records and flows by the sending node's id (key) and the step's place
// in the sender's node (opnum: 0 for a point-to-point send).
#pragma once

#include <cstdint>
#include <string>

#include "replay/replay_plan.hpp"
#include "trace/chakra/chakra_collectives.hpp"
#include "trace/chakra/chakra_model.hpp"

namespace dlcnet::replay {

// Throws Error naming the file, the node and the field for what the replay cannot carry:
// collectives that differ between the members of their process group (count, comm_type,
// comm_size), a node id above 2^31-1 (records name messages by int32 keys), a root that is not
// a rank of every rooted collective's group. `job` must be clean (trace::chakra::read_job, its
// groups resolved). In replay/chakra_check.cpp.
void check_chakra_replayable(const trace::chakra::Job& job,
                             const trace::chakra::CollectiveOptions& coll);
// Its first check: a root past the job's ranks or the smallest group a rooted collective runs
// in (Error naming --root).
void check_chakra_root(const trace::chakra::Job& job, int32_t root);
// The options of a SketchDLC or native job that a Chakra job refuses: --map (non-empty) and
// --iterations (not 0); Error naming the option. In replay/chakra_check.cpp.
void check_chakra_job_options(const std::string& map_spec, uint32_t iterations);

// Rank `rank`'s plan; options.part_bytes must be set (the agreed part size).
RankPlan build_chakra_plan(const trace::chakra::Job& job, int rank, const PlanOptions& options,
                           const trace::chakra::CollectiveOptions& coll);

// Messages of the whole job (sends of every rank, collective steps included), and the largest.
struct ChakraMessages {
  uint64_t count = 0;
  uint64_t largest = 0;
};
ChakraMessages chakra_messages(const trace::chakra::Job& job,
                               const trace::chakra::CollectiveOptions& coll);

// Hash of the job (every node's fields that shape the plan) and the options, as
// plan_fingerprint() for a trace::Job.
uint64_t chakra_fingerprint(const trace::chakra::Job& job, const PlanOptions& options,
                            const trace::chakra::CollectiveOptions& coll) noexcept;

}  // namespace dlcnet::replay
