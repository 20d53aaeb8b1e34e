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
    diag->add(p, r.file, 0, describe(n) + ": " + what);
  } else {
    diag->count(p);
  }
}

// Kahn's algorithm over the resolved edges; the nodes never freed lie on or behind a cycle.
// One of those on a cycle is named: walk back from any of them until a node repeats.
void check_cycles(const Rank& r, const std::vector<std::vector<uint32_t>>& deps,
                  Diagnostics& diag) {
  const size_t n = deps.size();
  std::vector<uint32_t> waiting(n, 0);
  std::vector<std::vector<uint32_t>> users(n);
  for (uint32_t i = 0; i < n; ++i) {
    waiting[i] = static_cast<uint32_t>(deps[i].size());
    for (const uint32_t d : deps[i]) users[d].push_back(i);
  }
  std::vector<uint32_t> ready;
  for (uint32_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) ready.push_back(i);
  }
  size_t freed = 0;
  while (!ready.empty()) {
    const uint32_t i = ready.back();
    ready.pop_back();
    ++freed;
    for (const uint32_t u : users[i]) {
      if (--waiting[u] == 0) ready.push_back(u);
    }
  }
  if (freed == n) return;
  uint32_t at = 0;
  while (waiting[at] == 0) ++at;
  std::vector<bool> seen(n, false);
  while (!seen[at]) {  // every stuck node has a stuck dependency
    seen[at] = true;
    for (const uint32_t d : deps[at]) {
      if (waiting[d] != 0) {
        at = d;
        break;
      }
    }
  }
  add(&diag, Problem::kDependencyCycle, r, r.nodes[at],
      "field 'ctrl_deps'/'data_deps': on a dependency cycle (" + std::to_string(n - freed) +
          " nodes can never run)");
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
    for (const auto* list : {&n.ctrl_deps, &n.data_deps}) {
      const char* field = list == &n.ctrl_deps ? "ctrl_deps" : "data_deps";
      for (const uint64_t id : *list) {
        const auto it = by_id.find(id);
        if (it == by_id.end()) {
          add(diag, Problem::kDanglingDependency, r, n,
              std::string("field '") + field + "': no node with id " + std::to_string(id) +
                  " in this file");
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
  const size_t n = deps.size();
  std::vector<uint32_t> waiting(n, 0);
  std::vector<std::vector<uint32_t>> users(n);
  for (uint32_t i = 0; i < n; ++i) {
    waiting[i] = static_cast<uint32_t>(deps[i].size());
    for (const uint32_t d : deps[i]) users[d].push_back(i);
  }
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
  for (uint32_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) ready.push(i);
  }
  std::vector<uint32_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    const uint32_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (const uint32_t u : users[i]) {
      if (--waiting[u] == 0) ready.push(u);
    }
  }
  return order;
}

}  // namespace dlcnet::trace::chakra
