// One rank's replay plan: its node's timeline with what the engine needs per entry (think
// time, size, parts, peer rank), who depends on whom, and the per-peer channel order. Both ends
// of a channel derive its order from the job: the sender posts its sends to a peer in its
// timeline order, the receiver posts its receives in that same order, and the transports keep
// per-peer order (RC, UCX tags per sender), so the k-th receive gets the k-th message.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "replay/replay_options.hpp"
#include "replay/replay_rank_map.hpp"
#include "replay/replay_timeline.hpp"

namespace dlcnet::replay {

struct PlanEntry {
  int64_t think_ns = 0;  // dag: dTime x time scale; asap and receives: 0
  int64_t timed_ns = 0;  // timed: (trace time - node's first) x time scale
  uint64_t bytes = 0;
  uint32_t parts = 1;            // transport operations carrying it (split above part_bytes)
  uint32_t channel_pos = 0;      // position in sends_to[peer] / recvs_from[peer]
  uint32_t dependent_begin = 0;  // in RankPlan::dependents
  int32_t peer = -1;             // replay rank at the other end; -1: not replayed
  int32_t key = -1;              // the trace key (-1: set-up message)
  // The sender's opnum, continued across copies, on both ends, so that (src, dst, key,
  // opnum) names one message in both ranks' records; set-up messages (key -1), which have
  // none, take their position on the channel.
  int32_t msg_opnum = 0;
  bool send = false;
  bool replayable = false;  // both ends are replayed in this copy; else completes at once
  // No message: a compute node (Chakra's COMP_NODE and the other kinds without a message),
  // complete think_ns after its dependencies (dag; at once otherwise), on the replay's clock
  // without waiting for it: what depends on it is planned that much later.
  bool compute = false;
};

struct RankPlan {
  int rank = 0;
  uint16_t node = 0;
  NodeTimeline timeline;
  std::vector<PlanEntry> entries;                 // parallel to timeline.entries
  std::vector<uint32_t> dependents;               // CSR: entries whose dependency is the entry
  std::vector<std::vector<uint32_t>> sends_to;    // [rank]: send entries in channel order
  std::vector<std::vector<uint32_t>> recvs_from;  // [rank]: receive entries in channel order
  std::vector<int> peers;  // ranks to connect: message peers, and rank 0 <-> all (clock sync)
  // The one place --mode is decided: timed is an open loop (every send at its trace time,
  // dependencies gate nothing); dag and asap follow the dependencies, each send its think time
  // after them (PlanEntry::think_ns, 0 for asap).
  bool open_loop = false;
  uint64_t part_bytes = 0;
  uint64_t region_bytes = 0;  // the one registered buffer, same size on every rank
  uint64_t unreplayable = 0;  // entries whose other end is not replayed
  uint64_t split_messages = 0;
  uint64_t sends = 0, receives = 0;

  std::span<const uint32_t> dependents_of(uint32_t i) const noexcept {
    const uint32_t end = i + 1 < entries.size() ? entries[i + 1].dependent_begin
                                                : static_cast<uint32_t>(dependents.size());
    return {dependents.data() + entries[i].dependent_begin, end - entries[i].dependent_begin};
  }
};

RankPlan build_rank_plan(const trace::Job& job, const RankMap& map, int rank,
                         const PlanOptions& options, const Copies& copies);

// Transport operations for a message of `bytes` (split above part_bytes).
uint32_t parts_for(uint64_t bytes, uint64_t part_bytes) noexcept;
// The end of every plan builder: the dependents (CSR) from the timeline's dependencies, the
// counts (sends, receives, not replayed, split) and the peers to connect. Needs rank,
// entries, timeline.deps, sends_to and recvs_from.
void finish_plan(RankPlan& p);

// The hash behind the plan fingerprints (FNV-1a with a shift).
class FingerprintMix {
 public:
  void operator()(uint64_t v) noexcept {
    h_ ^= v;
    h_ *= 0x100000001b3ull;
    h_ ^= h_ >> 29;
  }
  uint64_t value() const noexcept { return h_; }

 private:
  uint64_t h_ = 0xcbf29ce484222325ull;
};
// The options every fingerprint holds: mode, time scale, op and part size.
void mix_plan_options(FingerprintMix& mix, const PlanOptions& options) noexcept;

// Largest message of the job: sizes the buffer alike on every rank.
uint64_t largest_message(const trace::Job& job) noexcept;

// Hash of everything both ends of a channel must agree on (the job's records, the map, the
// options): ranks compare it before replaying, so a rank on another job or with other
// options is refused instead of mismatching messages.
uint64_t plan_fingerprint(const trace::Job& job, const RankMap& map, const PlanOptions& options,
                          const Copies& copies) noexcept;

}  // namespace dlcnet::replay
