// Statistics of a Chakra job, per rank and per collective: nodes by type, compute and
// communication time as the trace records them, point-to-point messages, and the messages
// each collective expands to under the algorithms of chakra_collectives.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/chakra/chakra_collectives.hpp"
#include "trace/chakra/chakra_model.hpp"

namespace dlcnet::trace::chakra {

struct RankStats {
  int32_t rank = 0;
  std::string file;
  std::array<uint64_t, kNumNodeTypes> nodes_by_type{};
  uint64_t compute_us = 0;  // COMP_NODE durations
  uint64_t comm_us = 0;     // send, receive and collective durations
  uint64_t other_us = 0;    // durations of every other node (metadata, memory...)
  // Time in which compute and communication ran at once, from the nodes' start_time_micros and
  // durations: the union of the compute nodes' intervals intersected with the union of the
  // communication nodes'. Unknown (nullopt) unless every compute and communication node with a
  // duration has a start time.
  std::optional<uint64_t> overlap_us;
  Traffic p2p;  // COMM_SEND_NODE and COMM_RECV_NODE
  uint64_t collectives = 0;
  Traffic collective;  // what the collectives expand to
  Traffic total() const;
};

// One collective type within one process group (pg_name; empty: the whole world).
struct CollectiveStats {
  Collective type = Collective::kAllReduce;
  std::string pg_name;
  int32_t group_ranks = 0;  // the group's ranks (the world's for pg_name "")
  uint64_t nodes = 0;       // COMM_COLL_NODEs, over every rank
  uint64_t comm_bytes = 0;  // their comm_size, summed over every rank
  Traffic traffic;          // their messages, over every rank
};

struct JobStats {
  int32_t world = 0;
  CollectiveOptions options;
  std::vector<RankStats> ranks;
  std::vector<CollectiveStats> collectives;  // by type, then process group
};

// Every collective among the ranks of its process group (chakra_groups.hpp; the job's groups
// resolved).
JobStats compute_stats(const Job& job, const CollectiveOptions& options);

}  // namespace dlcnet::trace::chakra
