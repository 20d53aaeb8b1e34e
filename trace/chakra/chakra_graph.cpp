#include "trace/chakra/chakra_graph.hpp"

#include <functional>
#include <queue>
#include <unordered_map>
#include <vector>

namespace dlcnet::trace::chakra {
namespace {

void add(Diagnostics* diag, Problem p, const Rank& r, const Node& n, const std::string& what) {
  if (diag == nullptr) return;
  if (diag->wants(p)) {
    diag->add(p, r.file, n.line, describe(n) + ": " + what);
  } else {
    diag->count(p);
  }
}

// Kahn's algorithm: the nodes in an order where each comes after its dependencies; the nodes
// on or behind a cycle are never freed and left out. lowest_first: of the ready nodes the one
// of lowest index (a stable order, dependency_order's); else the last freed (check_cycles').
std::vector<uint32_t> kahn(const std::vector<std::vector<uint32_t>>& deps, bool lowest_first) {
  const size_t n = deps.size();
  std::vector<uint32_t> waiting(n, 0);
  std::vector<std::vector<uint32_t>> users(n);
  for (uint32_t i = 0; i < n; ++i) {
    waiting[i] = static_cast<uint32_t>(deps[i].size());
    for (const uint32_t d : deps[i]) users[d].push_back(i);
  }
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> heap;
  std::vector<uint32_t> stack;
  const auto push = [&](uint32_t i) { lowest_first ? heap.push(i) : stack.push_back(i); };
  for (uint32_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) push(i);
  }
  std::vector<uint32_t> order;
  order.reserve(n);
  while (!(lowest_first ? heap.empty() : stack.empty())) {
    const uint32_t i = lowest_first ? heap.top() : stack.back();
    lowest_first ? heap.pop() : stack.pop_back();
    order.push_back(i);
    for (const uint32_t u : users[i]) {
      if (--waiting[u] == 0) push(u);
    }
  }
  return order;
}

// The nodes Kahn's algorithm never frees lie on or behind a cycle. One of those on a cycle is
// named: walk back from any of them until a node repeats.
void check_cycles(const Rank& r, const std::vector<std::vector<uint32_t>>& deps,
                  Diagnostics& diag) {
  const size_t n = deps.size();
  const std::vector<uint32_t> order = kahn(deps, false);
  if (order.size() == n) return;
  std::vector<bool> freed(n, false);
  for (const uint32_t i : order) freed[i] = true;
  uint32_t at = 0;
  while (freed[at]) ++at;
  std::vector<bool> seen(n, false);
  while (!seen[at]) {  // every stuck node has a stuck dependency
    seen[at] = true;
    for (const uint32_t d : deps[at]) {
      if (!freed[d]) {
        at = d;
        break;
      }
    }
  }
  const Node& stuck = r.nodes[at];
  add(&diag, Problem::kDependencyCycle, r, stuck,
      "field '" + std::string(field_name(stuck, "ctrl_deps")) + "'/'data_deps': on a dependency " +
          "cycle (" + std::to_string(n - order.size()) + " nodes can never run)");
}

std::vector<std::vector<uint32_t>> resolve(const Rank& r, Diagnostics* diag) {
  std::unordered_map<uint64_t, uint32_t> by_id;
  by_id.reserve(r.nodes.size());
  for (uint32_t i = 0; i < r.nodes.size(); ++i) {
    const auto [it, fresh] = by_id.emplace(r.nodes[i].id, i);
    if (!fresh) {
      add(diag, Problem::kBadDependency, r, r.nodes[i],
          "field 'id': id " + std::to_string(r.nodes[i].id) + " is also " +
              describe(r.nodes[it->second]) + "'s: dependencies on it are ambiguous");
    }
  }
  std::vector<std::vector<uint32_t>> deps(r.nodes.size());
  for (uint32_t i = 0; i < r.nodes.size(); ++i) {
    const Node& n = r.nodes[i];
    for (const bool ctrl : {true, false}) {
      const std::string_view field = field_name(n, ctrl ? "ctrl_deps" : "data_deps");
      for (const uint64_t id : ctrl ? n.ctrl_deps() : n.data_deps()) {
        const auto it = by_id.find(id);
        if (it == by_id.end()) {
          add(diag, Problem::kDanglingDependency, r, n,
              "field '" + std::string(field) + "': no node with id " + std::to_string(id) +
                  (n.line != 0 ? " of rank " + std::to_string(r.rank) : " in this file"));
        } else {
          deps[i].push_back(it->second);
        }
      }
    }
  }
  return deps;
}

}  // namespace

void check_graph(const Rank& r, Diagnostics& diag) {
  check_cycles(r, resolve(r, &diag), diag);
}

std::vector<std::vector<uint32_t>> resolve_dependencies(const Rank& rank) {
  return resolve(rank, nullptr);
}

std::vector<uint32_t> dependency_order(const std::vector<std::vector<uint32_t>>& deps) {
  return kahn(deps, true);
}

}  // namespace dlcnet::trace::chakra
