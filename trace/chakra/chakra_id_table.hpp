// A rank's node ids looked up as positions in Rank::nodes, without a table entry per node when
// the file gives its ids in ascending order (the usual case): the nodes themselves are then the
// sorted table. Otherwise one sorted array of (id, position), built in a buffer kept for the
// next rank. A lookup gallops from a hint (a dependency is usually near its node), so it reads
// a few neighbouring entries rather than the whole table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "trace/chakra/chakra_model.hpp"

namespace dlcnet::trace::chakra {

class IdTable {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // Indexes r's nodes. Each node whose id an earlier node has already, in file order, as (its
  // position, the first such node's) in `duplicates` (cleared first): dependencies on that id
  // resolve to the first.
  void build(const Rank& r, std::vector<std::pair<uint32_t, uint32_t>>& duplicates);
  // The position in r.nodes of the first node with this id, or kNone. `hint`: a position in
  // r.nodes near where the id is expected (the dependent node's own).
  uint32_t find(uint64_t id, uint32_t hint) const noexcept;

 private:
  uint64_t key(size_t at) const noexcept { return in_order_ ? nodes_[at].id : sorted_[at].first; }
  // The first table position whose key is >= id, searched outward from `from`.
  size_t lower_bound(uint64_t id, size_t from) const noexcept;

  const Node* nodes_ = nullptr;
  size_t size_ = 0;
  bool in_order_ = true;                               // ids strictly ascending in file order
  std::vector<std::pair<uint64_t, uint32_t>> sorted_;  // (id, position), when not
  std::vector<uint32_t> table_of_;                     // node position -> table position
};

}  // namespace dlcnet::trace::chakra
