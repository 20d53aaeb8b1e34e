#include "trace/chakra/chakra_model.hpp"

#include <algorithm>
#include <array>

namespace dlcnet::trace::chakra {

std::string_view node_type_name(NodeType t) noexcept {
  static constexpr std::array<std::string_view, kNumNodeTypes> kNames{
      "INVALID_NODE", "METADATA_NODE",  "MEM_LOAD_NODE",  "MEM_STORE_NODE",
      "COMP_NODE",    "COMM_SEND_NODE", "COMM_RECV_NODE", "COMM_COLL_NODE",
      "STORAGE_NODE", "BATCH_NODE",     "CHECKPOINT_NODE"};
  const auto i = static_cast<size_t>(t);
  return i < kNames.size() ? kNames[i] : "?";
}

std::string_view collective_name(Collective c) noexcept {
  static constexpr std::array<std::string_view, kNumCollectives> kNames{
      "ALL_REDUCE", "REDUCE",         "ALL_GATHER",           "GATHER", "SCATTER", "BROADCAST",
      "ALL_TO_ALL", "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK", "BARRIER"};
  const auto i = static_cast<size_t>(c);
  return i < kNames.size() ? kNames[i] : "?";
}

const Rank* Job::rank(int64_t r) const noexcept {
  const auto it = std::lower_bound(ranks.begin(), ranks.end(), r,
                                   [](const Rank& a, int64_t b) { return a.rank < b; });
  return it != ranks.end() && it->rank == r ? &*it : nullptr;
}

std::string describe(const Node& n) {
  std::string out = "node #" + std::to_string(n.index) + " (id " + std::to_string(n.id);
  if (!n.name.empty()) out += ", '" + n.name + "'";
  return out + ")";
}

std::string describe(const Rank& r, const Node& n) {
  return r.file + ": " + describe(n);
}

}  // namespace dlcnet::trace::chakra
