// Which process replays which trace node. One rank per worker and server; the scheduler is
// not replayed (its exchanges are set-up control, not training traffic). Default: workers
// then servers, i.e. rank = the node's rank in the trace.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "trace/trace_model.hpp"

namespace dlcnet::replay {

class RankMap {
 public:
  // `spec`: "" for the default, else comma-separated NODE=RANK with NODE a name (worker0,
  // server1) or a trace node rank; nodes not named take the ranks left, in default order.
  // Throws Error naming the entry for an unknown node, a rank used twice or out of range, or
  // a worker/server whose trace file is absent.
  static RankMap make(const trace::Job& job, std::string_view spec);

  int world_size() const noexcept { return static_cast<int>(node_of_rank_.size()); }
  int rank_of(uint16_t node) const noexcept {
    return node < rank_of_node_.size() ? rank_of_node_[node] : -1;
  }
  uint16_t node_of(int rank) const noexcept { return node_of_rank_[static_cast<size_t>(rank)]; }

  // [{"rank", "node", "role"}...] plus the scheduler as not replayed.
  nlohmann::json to_json(const trace::Job& job) const;
  // "rank 0 = worker0, rank 1 = worker1, rank 2 = server0".
  std::string describe(const trace::Job& job) const;
  // Node order by rank, for the plan fingerprint.
  const std::vector<uint16_t>& nodes_by_rank() const noexcept { return node_of_rank_; }

 private:
  std::vector<int> rank_of_node_;       // -1: not replayed
  std::vector<uint16_t> node_of_rank_;  // trace node rank of each replay rank
};

}  // namespace dlcnet::replay
