#include "replay/replay_timeline.hpp"

#include <algorithm>
#include <climits>
#include <unordered_map>

namespace dlcnet::replay {
namespace {

using trace::kNone;

// The time one pass over the trace's training iterations takes at this node, so that looped
// copies keep their place on the node's clock (timed mode, and the trace side of the report).
int64_t loop_period(const trace::Node& node, int32_t T) {
  if (T < 1) return 0;
  std::vector<int64_t> first(static_cast<size_t>(T) + 1, INT64_MAX);
  std::vector<int64_t> last(static_cast<size_t>(T) + 1, INT64_MIN);
  for (const trace::Record& r : node.records) {
    if (r.iteration < 0 || r.iteration > T || r.time_ns == 0) continue;
    first[r.iteration] = std::min(first[r.iteration], r.time_ns);
    last[r.iteration] = std::max(last[r.iteration], r.time_ns);
  }
  if (T >= 2 && first[T] != INT64_MAX && first[1] != INT64_MAX) {
    return (first[T] - first[1]) * T / (T - 1);
  }
  if (first[1] == INT64_MAX) return 0;
  // One iteration: its own span plus the gap that led into it.
  const int64_t gap = last[0] != INT64_MIN ? first[1] - last[0] : 0;
  return last[1] - first[1] + std::max<int64_t>(gap, 0);
}

uint64_t pack(const trace::Record& r) noexcept {
  return (static_cast<uint64_t>(r.op) << 56) | (static_cast<uint64_t>(r.peer) << 32) |
         static_cast<uint32_t>(r.key);
}

}  // namespace

Copies Copies::make(const trace::Job& job, uint32_t iterations) {
  Copies c;
  for (const trace::Node& n : job.nodes) {
    for (const trace::Record& r : n.records)
      c.trace_iterations = std::max(c.trace_iterations, r.iteration);
  }
  const int32_t T = c.trace_iterations;
  c.replay_iterations = iterations == 0 ? T : static_cast<int32_t>(iterations);
  c.count = 1;
  if (T >= 1 && c.replay_iterations > T) {
    c.count = static_cast<uint32_t>((c.replay_iterations + T - 1) / T);
  }
  if (T < 1) c.replay_iterations = 0;  // nothing to loop: set-up and initialisation only
  return c;
}

NodeTimeline expand_node(const trace::Job& job, const trace::Node& node, const Copies& copies) {
  (void)job;
  NodeTimeline t;
  t.node = node.rank;
  const size_t n = node.records.size();
  const int32_t T = copies.trace_iterations;
  t.records_ = n;
  t.index_.assign(copies.count * n, kNone);
  const int64_t period = loop_period(node, T);
  for (uint32_t c = 0; c < copies.count; ++c) {
    for (uint32_t i = 0; i < n; ++i) {
      const trace::Record& r = node.records[i];
      if (!copies.includes(c, r.iteration)) continue;
      t.index_[c * n + i] = static_cast<uint32_t>(t.entries.size());
      TimelineEntry e;
      e.record = i;
      e.copy = c;
      e.trace_time_ns = r.time_ns == 0 ? 0 : r.time_ns + static_cast<int64_t>(c) * period;
      e.iteration = r.iteration >= 1 ? r.iteration + static_cast<int32_t>(c) * T : r.iteration;
      e.opnum = r.opnum + 4 * T * static_cast<int32_t>(c);
      t.entries.push_back(e);
    }
  }
  // A copy's first iteration depends on the initialisation in the trace; looped, it depends on
  // the same record of the previous copy's last iteration instead.
  std::unordered_map<uint64_t, uint32_t> last_iteration;
  if (copies.count > 1) {
    for (uint32_t i = 0; i < n; ++i) {
      const trace::Record& r = node.records[i];
      if (r.is_data() && r.iteration == T) last_iteration.emplace(pack(r), i);
    }
  }
  t.deps.reserve(node.deps.size() * copies.count);
  for (uint32_t e = 0; e < t.entries.size(); ++e) {
    TimelineEntry& te = t.entries[e];
    te.dep_begin = static_cast<uint32_t>(t.deps.size());
    const uint32_t c = te.copy;
    for (uint32_t d : node.deps_of(te.record)) {
      const trace::Record& dr = node.records[d];
      uint32_t target = kNone;
      if (c == 0 || dr.iteration >= 1) {
        target = t.index_[c * n + d];
      } else if (dr.iteration == 0) {
        auto it = last_iteration.find(pack(dr));
        if (it != last_iteration.end()) target = t.index_[(c - 1) * n + it->second];
      }
      if (target == kNone) {
        ++t.dropped_deps;
      } else {
        t.deps.push_back(target);
      }
    }
    // Set-up commands carry no dependencies and no times, but a capture writes them when they
    // happen: the start-up ones first, the shut-down ones last. Each follows the record before
    // it, or a shut-down command would be planned at the start and hold its channel all run.
    if (!node.records[te.record].is_data() && te.dep_begin == t.deps.size() && e > 0 &&
        t.entries[e - 1].copy == c) {
      t.deps.push_back(e - 1);
    }
  }
  return t;
}

}  // namespace dlcnet::replay
