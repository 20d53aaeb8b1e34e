#include "trace/chakra/chakra_graph.hpp"

#include <functional>
#include <queue>
#include <span>
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

// Calls each(i, d) for every dependency of node i (ctrl_deps, then data_deps) that names node
// d; one that names no node is reported to `diag` (when given) and left out.
template <class Each>
void resolve_each(const Rank& r, const IdTable& ids, Diagnostics* diag, Each each) {
  for (uint32_t i = 0; i < r.nodes.size(); ++i) {
    const Node& n = r.nodes[i];
    for (const bool ctrl : {true, false}) {
      for (const uint64_t id : ctrl ? n.ctrl_deps() : n.data_deps()) {
        const uint32_t d = ids.find(id, i);
        if (d != IdTable::kNone) {
          each(i, d);
          continue;
        }
        const std::string_view field = field_name(n, ctrl ? "ctrl_deps" : "data_deps");
        add(diag, Problem::kDanglingDependency, r, n,
            "field '" + std::string(field) + "': no node with id " + std::to_string(id) +
                (n.line != 0 ? " of rank " + std::to_string(r.rank) : " in this file"));
      }
    }
  }
}

// Kahn's algorithm over the n nodes whose dependencies deps_of(i) gives (a span of positions):
// the nodes in an order where each comes after its dependencies; the nodes on or behind a cycle
// are never freed and left out. lowest_first: of the ready nodes the one of lowest index (a
// stable order, dependency_order's); else the last freed.
template <class DepsOf>
std::vector<uint32_t> kahn(size_t n, DepsOf deps_of, bool lowest_first) {
  // Who depends on each node, as one array: users of i at users[first[i]..first[i + 1]).
  std::vector<uint32_t> waiting(n, 0);
  std::vector<size_t> first(n + 1, 0);
  for (uint32_t i = 0; i < n; ++i) {
    waiting[i] = static_cast<uint32_t>(deps_of(i).size());
    for (const uint32_t d : deps_of(i)) ++first[d + 1];
  }
  for (size_t i = 0; i < n; ++i) first[i + 1] += first[i];
  std::vector<uint32_t> users(first[n]);
  {
    std::vector<size_t> fill(first.begin(), first.end() - 1);
    for (uint32_t i = 0; i < n; ++i) {
      for (const uint32_t d : deps_of(i)) users[fill[d]++] = i;
    }
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
    for (size_t u = first[i]; u < first[i + 1]; ++u) {
      if (--waiting[users[u]] == 0) push(users[u]);
    }
  }
  return order;
}

// The nodes Kahn's algorithm never frees lie on or behind a cycle. One of those on a cycle is
// named: walk back from any of them until a node repeats.
template <class DepsOf>
void check_cycles(const Rank& r, DepsOf deps_of, Diagnostics& diag) {
  const size_t n = r.nodes.size();
  const std::vector<uint32_t> order = kahn(n, deps_of, false);
  if (order.size() == n) return;
  std::vector<bool> freed(n, false);
  for (const uint32_t i : order) freed[i] = true;
  uint32_t at = 0;
  while (freed[at]) ++at;
  std::vector<bool> seen(n, false);
  while (!seen[at]) {  // every stuck node has a stuck dependency
    seen[at] = true;
    for (const uint32_t d : deps_of(at)) {
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

}  // namespace

void GraphCheck::operator()(const Rank& r, Diagnostics& diag) {
  ids_.build(r, duplicates_);
  for (const auto& [later, earlier] : duplicates_) {
    add(&diag, Problem::kBadDependency, r, r.nodes[later],
        "field 'id': id " + std::to_string(r.nodes[later].id) + " is also " +
            describe(r.nodes[earlier]) + "'s: dependencies on it are ambiguous");
  }
  // A cycle needs a dependency on a node at or after its own position: without one, the file's
  // order is an order that runs every node.
  bool backward_only = true;
  resolve_each(r, ids_, &diag, [&](uint32_t i, uint32_t d) { backward_only &= d < i; });
  if (backward_only) return;
  // Every dependency in one array: node i's at targets_[offsets_[i]..offsets_[i + 1]).
  offsets_.assign(r.nodes.size() + 1, 0);
  targets_.clear();
  resolve_each(r, ids_, nullptr, [&](uint32_t i, uint32_t d) {
    targets_.push_back(d);
    ++offsets_[i + 1];
  });
  for (size_t i = 0; i < r.nodes.size(); ++i) offsets_[i + 1] += offsets_[i];
  check_cycles(
      r,
      [&](uint32_t i) {
        return std::span<const uint32_t>(targets_.data() + offsets_[i],
                                         offsets_[i + 1] - offsets_[i]);
      },
      diag);
}

void check_graph(const Rank& r, Diagnostics& diag) {
  GraphCheck check;
  check(r, diag);
}

std::vector<std::vector<uint32_t>> resolve_dependencies(const Rank& rank) {
  IdTable ids;
  std::vector<std::pair<uint32_t, uint32_t>> duplicates;
  ids.build(rank, duplicates);
  std::vector<std::vector<uint32_t>> deps(rank.nodes.size());
  resolve_each(rank, ids, nullptr, [&](uint32_t i, uint32_t d) { deps[i].push_back(d); });
  return deps;
}

std::vector<uint32_t> dependency_order(const std::vector<std::vector<uint32_t>>& deps) {
  return kahn(
      deps.size(), [&](uint32_t i) { return std::span<const uint32_t>(deps[i]); }, true);
}

}  // namespace dlcnet::trace::chakra
