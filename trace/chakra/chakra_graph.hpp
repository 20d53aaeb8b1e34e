// The dependency graph of one rank's nodes: node ids unique, every ctrl_dep and data_dep names
// a node of the same file, no cycle.
#pragma once

#include "trace/chakra/chakra_model.hpp"
#include "trace/trace_diagnostics.hpp"

namespace dlcnet::trace::chakra {

// Problems in `diag`, each naming the file, the node and the field (ctrl_deps, data_deps, id).
void check_graph(const Rank& rank, Diagnostics& diag);

}  // namespace dlcnet::trace::chakra
