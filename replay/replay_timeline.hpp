// A node's records as the replay walks them: the trace's records in file order, cut to the
// iterations asked for or repeated ("copies") to loop the job, with every dependency resolved
// to an entry of the same timeline. Deterministic: every rank derives every node's timeline
// from the job alone, which is how a receiver knows the order its senders will send in.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace/trace_model.hpp"

namespace dlcnet::replay {

// How the trace's training iterations 1..T become the replay's 1..N. Copy 0 holds the set-up
// and initialisation records and iterations 1..min(N, T); copy c >= 1 holds iterations
// 1..min(T, N - c*T) again, as replay iterations c*T + 1 ... Looping numbers on: opnums grow
// by 4T a copy, so (src, dst, key, opnum) stays unique.
struct Copies {
  int32_t trace_iterations = 0;   // T: highest training iteration of the job
  int32_t replay_iterations = 0;  // N
  uint32_t count = 1;             // copies

  // Throws Error when the replay would not fit: more records than a timeline indexes, opnums
  // looped past int32 (naming the record's file:line), or more memory than the host has.
  static Copies make(const trace::Job& job, uint32_t iterations);
  void check_fits(const trace::Job& job, uint32_t iterations) const;
  // Whether a record of trace iteration `it` is replayed in copy `c`.
  bool includes(uint32_t c, int32_t it) const noexcept {
    if (c == 0)
      return it <= (replay_iterations < trace_iterations ? replay_iterations : trace_iterations);
    const int32_t last = replay_iterations - static_cast<int32_t>(c) * trace_iterations;
    return it >= 1 && it <= (last < trace_iterations ? last : trace_iterations);
  }
};

struct TimelineEntry {
  int64_t trace_time_ns = 0;  // the record's time stamp, shifted by the loop period per copy
  uint32_t record = 0;        // index in the node's records
  uint32_t copy = 0;
  int32_t iteration = 0;   // replay iteration (-1 set-up, 0 initialisation)
  int32_t opnum = 0;       // the record's opnum, continued across copies
  uint32_t dep_begin = 0;  // in NodeTimeline::deps
};

struct NodeTimeline {
  uint16_t node = 0;
  std::vector<TimelineEntry> entries;
  std::vector<uint32_t> deps;  // entry indices
  uint64_t dropped_deps = 0;   // dependencies on records not replayed (cut iterations)

  std::span<const uint32_t> deps_of(uint32_t i) const noexcept {
    const uint32_t end =
        i + 1 < entries.size() ? entries[i + 1].dep_begin : static_cast<uint32_t>(deps.size());
    return {deps.data() + entries[i].dep_begin, end - entries[i].dep_begin};
  }
  // Entry of record `record` in copy `copy`, or trace::kNone when not replayed.
  uint32_t entry_of(uint32_t copy, uint32_t record) const noexcept {
    const size_t at = static_cast<size_t>(copy) * records_ + record;
    return at < index_.size() ? index_[at] : trace::kNone;
  }

 private:
  friend NodeTimeline expand_node(const trace::Job&, const trace::Node&, const Copies&);
  size_t records_ = 0;
  std::vector<uint32_t> index_;  // copy * records + record -> entry
};

NodeTimeline expand_node(const trace::Job& job, const trace::Node& node, const Copies& copies);

}  // namespace dlcnet::replay
