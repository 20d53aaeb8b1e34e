#include "trace/chakra/chakra_model.hpp"

#include <algorithm>
#include <array>
#include <utility>

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

std::string_view native_name(NodeType t) noexcept {
  static constexpr std::array<std::string_view, kNumNodeTypes> kNames{
      "invalid", "metadata", "mem_load", "mem_store", "comp",      "send",
      "recv",    "coll",     "storage",  "batch",     "checkpoint"};
  const auto i = static_cast<size_t>(t);
  return i < kNames.size() ? kNames[i] : "?";
}

std::string_view native_name(Collective c) noexcept {
  static constexpr std::array<std::string_view, kNumCollectives> kNames{
      "all_reduce", "reduce",         "all_gather",           "gather", "scatter", "broadcast",
      "all_to_all", "reduce_scatter", "reduce_scatter_block", "barrier"};
  const auto i = static_cast<size_t>(c);
  return i < kNames.size() ? kNames[i] : "?";
}

const Rank* Job::rank(int64_t r) const noexcept {
  const auto it = std::lower_bound(ranks.begin(), ranks.end(), r,
                                   [](const Rank& a, int64_t b) { return a.rank < b; });
  return it != ranks.end() && it->rank == r ? &*it : nullptr;
}

std::string describe(const Node& n) {
  if (n.line != 0) {
    std::string out = "node id " + std::to_string(n.id);
    return n.name().empty() ? out : out + " ('" + std::string(n.name()) + "')";
  }
  std::string out = "node #" + std::to_string(n.index) + " (id " + std::to_string(n.id);
  if (!n.name().empty()) out.append(", '").append(n.name()).append("'");
  return out + ")";
}

std::string where(const Rank& r, const Node& n) {
  return r.file + (n.line != 0 ? ":" + std::to_string(n.line) : "") + ": " + describe(n);
}

std::string_view kind_name(const Node& n, NodeType t) noexcept {
  return n.line != 0 ? native_name(t) : node_type_name(t);
}

std::string_view field_name(const Node& n, std::string_view chakra_field) noexcept {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kColumns{{
      {"comm_src", "peer"},
      {"comm_dst", "peer"},
      {"comm_tag", "tag"},
      {"comm_size", "bytes"},
      {"comm_type", "collective"},
      {"pg_name", "pg"},
      {"ctrl_deps", "deps"},
      {"duration_micros", "duration_ns"},
  }};
  if (n.line == 0) return chakra_field;
  for (const auto& [field, column] : kColumns) {
    if (field == chakra_field) return column;
  }
  return chakra_field;  // id, type, data_deps, name: the same in both
}

std::string node_error(const Rank& r, const Node& n, const std::string& what) {
  constexpr std::string_view kField = "field '";
  const size_t end = what.find('\'', kField.size());
  if (!what.starts_with(kField) || end == std::string::npos) return where(r, n) + ": " + what;
  const std::string_view field = std::string_view(what).substr(kField.size(), end - kField.size());
  return where(r, n) + ": field '" + std::string(field_name(n, field)) + what.substr(end);
}

}  // namespace dlcnet::trace::chakra
