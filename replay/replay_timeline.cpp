#include "replay/replay_timeline.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <unordered_map>

#include "core/error.hpp"
#include "core/memory_budget.hpp"

namespace dlcnet::replay {
namespace {

using trace::kNone;

// The time one pass over the trace's training iterations takes at this node, so that looped
// copies keep their place on the node's clock (timed mode, and the trace side of the report).
// Only iterations 0, 1 and T matter: nothing here is sized by T.
int64_t loop_period(const trace::Node& node, int32_t T) {
  if (T < 1) return 0;
  int64_t first1 = INT64_MAX, last1 = INT64_MIN, firstT = INT64_MAX, last0 = INT64_MIN;
  for (const trace::Record& r : node.records) {
    if (r.time_ns == 0) continue;
    if (r.iteration == 0) last0 = std::max(last0, r.time_ns);
    if (r.iteration == 1) {
      first1 = std::min(first1, r.time_ns);
      last1 = std::max(last1, r.time_ns);
    }
    if (r.iteration == T) firstT = std::min(firstT, r.time_ns);
  }
  // In long double: stamps far apart, times T, overflow int64 (clamped; the copies' stamps are
  // checked in Copies::make).
  auto clamp = [](long double v) {
    const long double lim = static_cast<long double>(INT64_MAX / 4);
    return static_cast<int64_t>(std::clamp(v, -lim, lim));
  };
  if (T >= 2 && firstT != INT64_MAX && first1 != INT64_MAX) {
    int64_t span = 0, scaled = 0;
    if (!__builtin_sub_overflow(firstT, first1, &span) &&
        !__builtin_mul_overflow(span, static_cast<int64_t>(T), &scaled)) {
      return scaled / (T - 1);  // exact, as before, for every trace whose numbers fit
    }
    return clamp((static_cast<long double>(firstT) - static_cast<long double>(first1)) * T /
                 (T - 1));
  }
  if (first1 == INT64_MAX) return 0;
  // One iteration: its own span plus the gap that led into it (exact in long double: 64-bit
  // mantissa).
  const long double gap =
      last0 != INT64_MIN ? static_cast<long double>(first1) - static_cast<long double>(last0) : 0;
  return clamp(static_cast<long double>(last1) - static_cast<long double>(first1) +
               std::max<long double>(gap, 0));
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
  if (iterations > static_cast<uint32_t>(INT32_MAX)) {
    throw Error("--iterations " + std::to_string(iterations) + ": at most " +
                std::to_string(INT32_MAX));
  }
  c.replay_iterations = iterations == 0 ? T : static_cast<int32_t>(iterations);
  c.count = 1;
  if (T >= 1 && c.replay_iterations > T) {
    c.count = static_cast<uint32_t>((c.replay_iterations + T - 1) / T);
  }
  if (T < 1) c.replay_iterations = 0;  // nothing to loop: set-up and initialisation only
  c.check_fits(job, iterations);
  return c;
}

void Copies::check_fits(const trace::Job& job, uint32_t iterations) const {
  const int64_t T = trace_iterations;
  const int64_t extra = static_cast<int64_t>(count) - 1;  // copies after the first
  uint64_t entries = 0;
  for (const trace::Node& n : job.nodes) {
    const uint64_t node_entries = static_cast<uint64_t>(n.records.size()) * count;
    if (node_entries >= trace::kNone) {
      throw Error("--iterations " + std::to_string(iterations) + ": " + n.name() +
                  " would replay " + std::to_string(node_entries) +
                  " records, more than a timeline can index (2^32)");
    }
    entries += node_entries;
    if (extra == 0) continue;
    for (const trace::Record& r : n.records) {
      // Looped copies number opnums and iterations on: they must stay int32.
      if (static_cast<int64_t>(r.opnum) + 4 * T * extra > INT32_MAX ||
          static_cast<int64_t>(r.iteration) + T * extra > INT32_MAX) {
        throw Error(n.file + ":" + std::to_string(r.line) + ": opnum " + std::to_string(r.opnum) +
                    " looped to " + std::to_string(iterations) +
                    " iterations (--iterations) goes past 2^31: loop fewer iterations");
      }
    }
  }
  // What every rank holds per replayed record: the timeline entry, its index slot and
  // dependencies, and the plan's entry (about 64 bytes).
  check_fits_in_memory(entries, sizeof(TimelineEntry) + 2 * sizeof(uint32_t) + 64,
                       "--iterations " + std::to_string(iterations) + ": replaying " +
                           std::to_string(replay_iterations) + " iterations (" +
                           std::to_string(entries) + " records)",
                       "ask for fewer with --iterations");
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
