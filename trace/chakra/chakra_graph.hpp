// The dependency graph of one rank's nodes: node ids unique, every ctrl_dep and data_dep names
// a node of the same file, no cycle.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "trace/chakra/chakra_id_table.hpp"
#include "trace/chakra/chakra_model.hpp"
#include "trace/trace_diagnostics.hpp"

namespace dlcnet::trace::chakra {

// Problems in `diag`, each naming the file, the node and the field (ctrl_deps, data_deps, id).
void check_graph(const Rank& rank, Diagnostics& diag);

// check_graph with its buffers kept from one rank to the next: nothing allocated per node. The
// dependencies are resolved in place; only a rank with a dependency on a node at or after its
// own position is checked for cycles, on one array of all its dependencies.
class GraphCheck {
 public:
  void operator()(const Rank& rank, Diagnostics& diag);

 private:
  IdTable ids_;
  std::vector<std::pair<uint32_t, uint32_t>> duplicates_;
  std::vector<size_t> offsets_;
  std::vector<uint32_t> targets_;
};

// Each node's dependencies (ctrl_deps, then data_deps) as positions in rank.nodes; an id that
// names no node is left out (check_graph reports it).
std::vector<std::vector<uint32_t>> resolve_dependencies(const Rank& rank);

// The positions of the nodes in an order that puts every node after its dependencies, the
// file's order where the graph leaves it free (the lowest position ready goes first); the nodes
// on or behind a cycle are left out.
std::vector<uint32_t> dependency_order(const std::vector<std::vector<uint32_t>>& deps);

}  // namespace dlcnet::trace::chakra
