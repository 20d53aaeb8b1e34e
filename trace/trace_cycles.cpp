#include "trace/trace_cycles.hpp"

#include <algorithm>
#include <vector>

#include "trace/trace_draft.hpp"

namespace dlcnet::trace {
namespace {

class Graph {
 public:
  explicit Graph(const Job& job) : job_(job) {
    base_.reserve(job.nodes.size() + 1);
    uint64_t total = 0;
    for (const Node& n : job.nodes) {
      base_.push_back(static_cast<uint32_t>(total));
      total += n.records.size();
    }
    base_.push_back(static_cast<uint32_t>(total));
  }
  uint32_t size() const noexcept { return base_.back(); }
  uint32_t base(size_t node) const noexcept { return base_[node]; }
  size_t node_of(uint32_t g) const noexcept {
    return static_cast<size_t>(std::upper_bound(base_.begin(), base_.end(), g) - base_.begin()) - 1;
  }

  // Calls f(global id) for every predecessor of record i of node `node`.
  template <typename F>
  void for_each_pred(size_t node, uint32_t i, F&& f) const {
    const Node& n = job_.nodes[node];
    for (uint32_t d : n.deps_of(i)) f(base_[node] + d);
    const Record& r = n.records[i];
    if (!r.is_send() && r.message != kNone) {
      const Message& m = job_.messages[r.message];
      if (m.sender_record != kNone) f(base_[m.sender] + m.sender_record);
    }
  }

  std::string describe(uint32_t g) const {
    const size_t node = node_of(g);
    const Node& n = job_.nodes[node];
    const Record& r = n.records[g - base_[node]];
    std::string s = n.file + ":" + std::to_string(r.line) + " " + std::string(op_name(r.op));
    if (r.is_data()) s += " " + op_id_text(r.key, r.opnum, r.peer, job_.num_workers);
    return s;
  }

 private:
  const Job& job_;
  std::vector<uint32_t> base_;
};

// Fast path: walk every node's records in order, as far as their predecessors are done. A
// consistent capture (records in local time order, every send before its receive) finishes.
uint32_t in_order_pass(const Job& job, const Graph& g, std::vector<uint8_t>& done) {
  std::vector<uint32_t> next(job.nodes.size(), 0);
  uint32_t finished = 0;
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t node = 0; node < job.nodes.size(); ++node) {
      const auto n = static_cast<uint32_t>(job.nodes[node].records.size());
      uint32_t i = next[node];
      for (; i < n; ++i) {
        bool ready = true;
        g.for_each_pred(node, i, [&](uint32_t p) { ready = ready && done[p] != 0; });
        if (!ready) break;
        done[g.base(node) + i] = 1;
        ++finished;
      }
      progress = progress || i != next[node];
      next[node] = i;
    }
  }
  return finished;
}

// Exact topological pass (Kahn) over the records the fast path left.
void kahn_pass(const Job& job, const Graph& g, std::vector<uint8_t>& done) {
  const uint32_t total = g.size();
  std::vector<uint32_t> indegree(total, 0);
  std::vector<uint32_t> offsets(total + 1, 0);
  for (size_t node = 0; node < job.nodes.size(); ++node) {
    for (uint32_t i = 0; i < job.nodes[node].records.size(); ++i) {
      const uint32_t x = g.base(node) + i;
      if (done[x]) continue;
      g.for_each_pred(node, i, [&](uint32_t p) {
        if (!done[p]) {
          ++indegree[x];
          ++offsets[p + 1];
        }
      });
    }
  }
  for (uint32_t x = 0; x < total; ++x) offsets[x + 1] += offsets[x];
  std::vector<uint32_t> succ(offsets[total]);
  std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
  std::vector<uint32_t> queue;
  for (size_t node = 0; node < job.nodes.size(); ++node) {
    for (uint32_t i = 0; i < job.nodes[node].records.size(); ++i) {
      const uint32_t x = g.base(node) + i;
      if (done[x]) continue;
      g.for_each_pred(node, i, [&](uint32_t p) {
        if (!done[p]) succ[fill[p]++] = x;
      });
      if (indegree[x] == 0) queue.push_back(x);
    }
  }
  while (!queue.empty()) {
    const uint32_t x = queue.back();
    queue.pop_back();
    done[x] = 1;
    for (uint32_t k = offsets[x]; k < offsets[x + 1]; ++k) {
      if (--indegree[succ[k]] == 0) queue.push_back(succ[k]);
    }
  }
}

// Every record left has a predecessor left: walking predecessors must come back on itself.
void report_cycles(const Job& job, const Graph& g, const std::vector<uint8_t>& done,
                   Diagnostics& diag) {
  std::vector<uint8_t> state(g.size(), 0);  // 0 unseen, 1 on the current walk, 2 seen
  for (uint32_t start = 0; start < g.size(); ++start) {
    if (done[start] || state[start] != 0) continue;
    std::vector<uint32_t> path;
    uint32_t cur = start;
    while (state[cur] == 0) {
      state[cur] = 1;
      path.push_back(cur);
      const size_t node = g.node_of(cur);
      uint32_t next = cur;
      bool found = false;
      g.for_each_pred(node, cur - g.base(node), [&](uint32_t p) {
        if (!found && !done[p]) {
          next = p;
          found = true;
        }
      });
      cur = next;
    }
    if (state[cur] == 1) {
      const auto from = std::find(path.begin(), path.end(), cur);
      std::vector<uint32_t> cycle(from, path.end());
      // Start the text at the cycle's first record in rank and line order.
      std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
      std::string text = "dependency cycle of " + std::to_string(cycle.size()) + " record" +
                         (cycle.size() == 1 ? "" : "s") + ": ";
      for (uint32_t x : cycle) text += g.describe(x) + " depends on ";
      text += "the first again";
      const size_t node = g.node_of(cycle.front());
      const Node& n = job.nodes[node];
      diag.add(Problem::kDependencyCycle, n.file, n.records[cycle.front() - g.base(node)].line,
               std::move(text));
    }
    for (uint32_t x : path) state[x] = 2;
  }
}

}  // namespace

uint64_t check_cycles(const Job& job, Diagnostics& diag) {
  const Graph g(job);
  std::vector<uint8_t> done(g.size(), 0);
  if (in_order_pass(job, g, done) == g.size()) return 0;
  kahn_pass(job, g, done);
  const auto left = static_cast<uint64_t>(std::count(done.begin(), done.end(), 0));
  if (left != 0) report_cycles(job, g, done, diag);
  return left;
}

}  // namespace dlcnet::trace
