// A Chakra job as dlcnet reads it (docs/chakra.md): one file per rank, each a list of nodes
// (compute, point-to-point send and receive, collectives, and the other kinds carried as
// zero-byte dependencies with their durations) joined by control and data dependencies.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "trace/chakra/chakra_node_store.hpp"

namespace dlcnet::trace::chakra {

// Chakra's NodeType values.
enum class NodeType : uint8_t {
  kInvalid = 0,
  kMetadata = 1,
  kMemLoad = 2,
  kMemStore = 3,
  kComp = 4,
  kCommSend = 5,
  kCommRecv = 6,
  kCommColl = 7,
  kStorage = 8,
  kBatch = 9,
  kCheckpoint = 10,
};
inline constexpr size_t kNumNodeTypes = 11;
// "COMP_NODE", ...: Chakra's own names.
std::string_view node_type_name(NodeType t) noexcept;

// Chakra's CollectiveCommType values.
enum class Collective : uint8_t {
  kAllReduce = 0,
  kReduce = 1,
  kAllGather = 2,
  kGather = 3,
  kScatter = 4,
  kBroadcast = 5,
  kAllToAll = 6,
  kReduceScatter = 7,
  kReduceScatterBlock = 8,
  kBarrier = 9,
};
inline constexpr size_t kNumCollectives = 10;
// "ALL_REDUCE", ...
std::string_view collective_name(Collective c) noexcept;

// The names of the native CSV format (docs/native-trace-format.md, version 2): "comp", "send",
// "recv", "coll", "mem_load"...; "all_reduce", "reduce_scatter"...
std::string_view native_name(NodeType t) noexcept;
std::string_view native_name(Collective c) noexcept;

// A node's dependency list: ids of nodes of the same rank. Equal when the ids are.
struct Ids : std::span<const uint64_t> {
  using std::span<const uint64_t>::span;
  using const_iterator = iterator;  // the elements are const already
  friend bool operator==(Ids a, Ids b) noexcept { return std::ranges::equal(a, b); }
};

// 96 bytes: the name, process-group name and dependency lists live in the rank's NodeStore
// (Rank::store), which sets them.
struct Node {
  uint64_t id = 0;           // 0 when the file omits it
  uint64_t start_us = 0;     // start_time_micros
  uint64_t duration_us = 0;  // duration_micros, or the `runtime` attribute when that is 0
  // Communication (send, receive, collective): the attributes comm_src, comm_dst, comm_tag,
  // comm_size, comm_type and pg_name. A send's source and a receive's destination default to
  // the file's rank.
  int64_t tag = 0;
  uint64_t size = 0;
  uint32_t index = 0;  // position among the file's nodes (0: the first after the metadata)
  uint32_t line = 0;   // its line in a native CSV file (chakra_native.hpp); 0 in an ET file
  int32_t src = -1;
  int32_t dst = -1;
  NodeType type = NodeType::kInvalid;
  Collective collective = Collective::kAllReduce;

  std::string_view name() const noexcept { return {name_, name_size_}; }
  // Empty: the whole world.
  std::string_view pg_name() const noexcept {
    return pg_name_ == nullptr ? std::string_view() : std::string_view(*pg_name_);
  }
  Ids ctrl_deps() const noexcept { return {deps_, n_ctrl_}; }
  Ids data_deps() const noexcept { return {deps_ + n_ctrl_, n_data_}; }

 private:
  friend class NodeStore;
  uint32_t name_size_ = 0;
  uint32_t n_ctrl_ = 0;
  uint32_t n_data_ = 0;
  const char* name_ = nullptr;
  const std::string* pg_name_ = nullptr;
  const uint64_t* deps_ = nullptr;  // ctrl_deps, then data_deps
};

// A process group's definition as a file gives it: the inputs of a METADATA_NODE named
// `## process_group:init ##` (PyTorch's process-group configuration, JSON), read by
// chakra_groups.hpp.
struct GroupDefinition {
  uint32_t node = 0;  // position in Rank::nodes
  std::string values;
};

struct Rank {
  int32_t rank = 0;
  std::string file;
  std::string version;  // GlobalMetadata's
  std::vector<Node> nodes;
  std::vector<GroupDefinition> group_definitions;
  // The nodes' names and dependency lists (move-only: so are Rank and Job).
  NodeStore store;
};

// A process group: its ranks in the group's order (group rank i is ranks[i]), and where it was
// defined ("job.0.et: node #0 (id 1, ...)" or "--comm-groups groups.json").
struct Group {
  std::vector<int32_t> ranks;
  std::string origin;
};

// The ranks read, in rank order: 0..world-1 when the job is whole (the loader reports a rank
// missing as an error and keeps the others).
struct Job {
  std::vector<Rank> ranks;
  int32_t world = 0;  // the highest rank named by a file, plus one
  // The process groups collectives name by pg_name (chakra_groups.hpp); the whole world is
  // pg_name "" and is not listed.
  std::map<std::string, Group, std::less<>> groups;
  // Rank `r`'s file, or nullptr when it is missing.
  const Rank* rank(int64_t r) const noexcept;
};

// "node #3 (id 7, 'name')": how diagnostics name a node; "node id 7 ('name')" for a node of a
// native CSV file, whose diagnostics give its line as well.
std::string describe(const Node& n);
// "file: node #3 (id 7, 'name')", or "file:12: node id 7 ('name')" for a native CSV file.
std::string where(const Rank& r, const Node& n);
// The name of a Chakra field (`comm_size`, `comm_dst`, `ctrl_deps`...) as diagnostics name it
// for this node: itself in an ET file, the column that holds it in a native CSV file (`bytes`,
// `peer`, `deps`...).
std::string_view field_name(const Node& n, std::string_view chakra_field) noexcept;
// where(r, n) + ": " + what, a leading "field '<chakra field>'" of `what` named as field_name()
// names it: the text of an Error about a node.
std::string node_error(const Rank& r, const Node& n, const std::string& what);
// A node type as diagnostics about `n` name it: Chakra's name in an ET file, the native one in a
// native CSV file.
std::string_view kind_name(const Node& n, NodeType t) noexcept;

}  // namespace dlcnet::trace::chakra
