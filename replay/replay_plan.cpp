#include "replay/replay_plan.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>

namespace dlcnet::replay {
namespace {

using trace::kNone;

// A message is replayed in copy c when both ends are replayed nodes with a record of it in
// that copy; both ends evaluate this same function on the same job.
bool message_replayable(const trace::Job& job, const RankMap& map, const trace::Message& m,
                        const Copies& copies, uint32_t c) {
  if (m.sender_record == kNone || m.receiver_record == kNone) return false;
  if (map.rank_of(m.sender) < 0 || map.rank_of(m.receiver) < 0) return false;
  return copies.includes(c, job.nodes[m.sender].records[m.sender_record].iteration) &&
         copies.includes(c, job.nodes[m.receiver].records[m.receiver_record].iteration);
}

int64_t scaled(int64_t ns, double scale) {
  return static_cast<int64_t>(std::llround(static_cast<double>(ns) * scale));
}

void add_receives(const trace::Job& job, const RankMap& map, const Copies& copies, RankPlan& p) {
  for (int s = 0; s < map.world_size(); ++s) {
    if (s == p.rank) continue;
    const trace::Node& sender = job.nodes[map.node_of(s)];
    for (uint32_t c = 0; c < copies.count; ++c) {
      for (const trace::Record& r : sender.records) {
        if (!r.is_send() || r.message == kNone || !copies.includes(c, r.iteration)) continue;
        const trace::Message& m = job.messages[r.message];
        if (m.receiver != p.node || !message_replayable(job, map, m, copies, c)) continue;
        const uint32_t e = p.timeline.entry_of(c, m.receiver_record);
        if (e == kNone) continue;
        PlanEntry& pe = p.entries[e];
        pe.replayable = true;
        pe.peer = s;
        pe.channel_pos = static_cast<uint32_t>(p.recvs_from[s].size());
        pe.msg_opnum = r.key < 0 ? static_cast<int32_t>(pe.channel_pos)
                                 : r.opnum + 4 * copies.trace_iterations * static_cast<int32_t>(c);
        p.recvs_from[s].push_back(e);
      }
    }
  }
}

}  // namespace

uint32_t parts_for(uint64_t bytes, uint64_t part_bytes) noexcept {
  return bytes > part_bytes ? static_cast<uint32_t>((bytes + part_bytes - 1) / part_bytes) : 1;
}

void finish_plan(RankPlan& p) {
  const auto n = static_cast<uint32_t>(p.entries.size());
  std::vector<uint32_t> count(n + 1, 0);
  for (uint32_t d : p.timeline.deps) ++count[d];
  uint32_t sum = 0;
  for (uint32_t i = 0; i < n; ++i) {
    p.entries[i].dependent_begin = sum;
    sum += count[i];
    count[i] = p.entries[i].dependent_begin;
  }
  p.dependents.assign(sum, 0);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t d : p.timeline.deps_of(i)) p.dependents[count[d]++] = i;
  }
  for (const PlanEntry& pe : p.entries) {
    if (pe.compute) continue;
    if (!pe.replayable) {
      ++p.unreplayable;
    } else if (pe.send) {
      ++p.sends;
      if (pe.parts > 1) ++p.split_messages;
    } else {
      ++p.receives;
    }
  }
  for (size_t r = 0; r < p.sends_to.size(); ++r) {
    if (static_cast<int>(r) == p.rank) continue;
    const bool traffic = !p.sends_to[r].empty() || !p.recvs_from[r].empty();
    if (traffic || p.rank == 0 || r == 0) p.peers.push_back(static_cast<int>(r));
  }
}

void mix_plan_options(FingerprintMix& mix, const PlanOptions& options) noexcept {
  mix(static_cast<uint64_t>(options.mode));
  mix(std::bit_cast<uint64_t>(options.time_scale));
  mix(static_cast<uint64_t>(options.transfer));
  mix(options.part_bytes);
}

uint64_t largest_message(const trace::Job& job) noexcept {
  uint64_t m = 0;
  for (const trace::Message& msg : job.messages) {
    m = std::max<uint64_t>(m, job.message_record(msg).length);
  }
  return m;
}

RankPlan build_rank_plan(const trace::Job& job, const RankMap& map, int rank,
                         const PlanOptions& options, const Copies& copies) {
  RankPlan p;
  p.rank = rank;
  p.node = map.node_of(rank);
  const trace::Node& me = job.nodes[p.node];
  p.timeline = expand_node(job, me, copies);
  const auto world = static_cast<size_t>(map.world_size());
  p.sends_to.resize(world);
  p.recvs_from.resize(world);
  p.part_bytes = std::max<uint64_t>(options.part_bytes, 1);
  // 64 bytes at least: the clock ping-pong uses the buffer too.
  p.region_bytes = std::max<uint64_t>(64, std::min(largest_message(job), p.part_bytes));

  int64_t node_first = INT64_MAX;
  for (const trace::Record& r : me.records) {
    if (r.time_ns != 0) node_first = std::min(node_first, r.time_ns);
  }
  p.entries.resize(p.timeline.entries.size());
  p.open_loop = options.mode == Mode::timed;
  for (uint32_t e = 0; e < p.entries.size(); ++e) {
    const TimelineEntry& te = p.timeline.entries[e];
    const trace::Record& r = me.records[te.record];
    PlanEntry& pe = p.entries[e];
    pe.bytes = r.length;
    pe.parts = parts_for(pe.bytes, p.part_bytes);
    pe.send = r.is_send();
    pe.think_ns = options.mode == Mode::dag ? scaled(r.dtime_ns, options.time_scale) : 0;
    pe.timed_ns = te.trace_time_ns == 0 || node_first == INT64_MAX
                      ? 0
                      : scaled(te.trace_time_ns - node_first, options.time_scale);
    pe.peer = map.rank_of(r.peer);
    pe.key = r.key;
    pe.msg_opnum = te.opnum;
    if (!pe.send || r.message == kNone) continue;
    const trace::Message& m = job.messages[r.message];
    if (!message_replayable(job, map, m, copies, te.copy)) continue;
    pe.replayable = true;
    pe.peer = map.rank_of(m.receiver);
    pe.channel_pos = static_cast<uint32_t>(p.sends_to[pe.peer].size());
    if (pe.key < 0) pe.msg_opnum = static_cast<int32_t>(pe.channel_pos);
    p.sends_to[pe.peer].push_back(e);
  }
  add_receives(job, map, copies, p);
  finish_plan(p);
  return p;
}

uint64_t plan_fingerprint(const trace::Job& job, const RankMap& map, const PlanOptions& options,
                          const Copies& copies) noexcept {
  FingerprintMix mix;
  mix(job.num_workers);
  mix(job.num_servers);
  mix(job.messages.size());
  for (const trace::Node& n : job.nodes) {
    mix(n.records.size());
    for (const trace::Record& r : n.records) {
      mix(r.length);
      mix(static_cast<uint32_t>(r.key));
      mix(static_cast<uint32_t>(r.opnum));
      mix(static_cast<uint64_t>(r.op) << 8 | r.bits);
      mix(static_cast<uint32_t>(r.iteration));
      mix(r.message);
    }
  }
  for (uint16_t node : map.nodes_by_rank()) mix(node);
  mix_plan_options(mix, options);
  mix(static_cast<uint64_t>(copies.replay_iterations));
  mix(copies.count);
  return mix.value();
}

}  // namespace dlcnet::replay
