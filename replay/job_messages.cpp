#include "replay/job_messages.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace dlcnet::replay {
namespace {

// What an entry stands for: the messages whose arrival it waits for, each with the compute
// time along the longest way from that arrival to the entry, and the compute time since the
// rank's start along ways without a message.
struct Waits {
  std::vector<std::pair<uint32_t, double>> on;  // message, delay after its arrival
  double floor_s = 0;
};

void merge_into(Waits& into, const Waits& from) {
  into.on.insert(into.on.end(), from.on.begin(), from.on.end());
  into.floor_s = std::max(into.floor_s, from.floor_s);
}

// One pair per message, with its longest delay.
void sort_unique(Waits& w) {
  std::sort(w.on.begin(), w.on.end(), [](const auto& a, const auto& b) {
    return a.first < b.first || (a.first == b.first && a.second > b.second);
  });
  w.on.erase(std::unique(w.on.begin(), w.on.end(),
                         [](const auto& a, const auto& b) { return a.first == b.first; }),
             w.on.end());
}

// Message ids: every replayed send, rank by rank, in entry order (-1: not a message).
std::vector<std::vector<int64_t>> number_messages(const std::vector<RankPlan>& plans, Mode mode,
                                                  JobMessages& out) {
  std::vector<std::vector<int64_t>> id(plans.size());
  for (size_t r = 0; r < plans.size(); ++r) {
    const RankPlan& p = plans[r];
    id[r].assign(p.entries.size(), -1);
    for (size_t e = 0; e < p.entries.size(); ++e) {
      const PlanEntry& pe = p.entries[e];
      if (!pe.send || !pe.replayable || pe.peer < 0) continue;
      id[r][e] = static_cast<int64_t>(out.messages.size());
      model::Message m;
      m.id = out.messages.size();
      m.src = static_cast<uint32_t>(r);
      m.dst = static_cast<uint32_t>(pe.peer);
      m.bytes = pe.bytes;
      if (mode == Mode::timed) m.start_s = static_cast<double>(pe.timed_ns) * 1e-9;
      m.think_s = static_cast<double>(pe.think_ns) * 1e-9;
      out.messages.push_back(m);
      out.key.push_back(pe.key);
      out.opnum.push_back(pe.msg_opnum);
    }
    // The engine posts a peer's sends in channel order: each message follows the one before.
    for (const std::vector<uint32_t>& channel : p.sends_to) {
      int64_t before = -1;
      for (uint32_t e : channel) {
        const int64_t m = id[r][e];
        if (m < 0) continue;
        if (before >= 0)
          out.messages[static_cast<size_t>(m)].follows = static_cast<uint32_t>(before);
        before = m;
      }
    }
  }
  return id;
}

// Message `m` waits for what its entry's dependencies stand for.
void wait_for(model::Message& m, const Waits& w) {
  bool delayed = false;
  m.after.reserve(w.on.size());
  for (const auto& [msg, delay] : w.on) {
    m.after.push_back(msg);
    delayed |= delay > 0;
  }
  if (delayed) {
    for (const auto& on : w.on) m.after_delay_s.push_back(on.second);
  }
  if (m.after.empty()) {
    m.start_s = w.floor_s + m.think_s;  // nothing to wait for: from the start
  } else if (w.floor_s > 0) {
    m.not_before_s = w.floor_s;
  }
}

}  // namespace

JobMessages plan_messages(const std::vector<RankPlan>& plans, Mode mode) {
  JobMessages out;
  const std::vector<std::vector<int64_t>> id = number_messages(plans, mode, out);
  if (mode == Mode::timed) return out;
  for (size_t r = 0; r < plans.size(); ++r) {
    const RankPlan& p = plans[r];
    // What each entry stands for; entries depend on earlier entries only.
    std::vector<Waits> stands(p.entries.size());
    for (uint32_t e = 0; e < p.entries.size(); ++e) {
      const PlanEntry& pe = p.entries[e];
      Waits w;
      for (uint32_t d : p.timeline.deps_of(e)) {
        if (d >= e) {
          throw Error("rank " + std::to_string(r) + ": entry " + std::to_string(e) +
                      " depends on a later entry (" + std::to_string(d) + ")");
        }
        merge_into(w, stands[d]);
      }
      sort_unique(w);
      const int64_t mine = id[r][e];
      if (mine >= 0) {
        wait_for(out.messages[static_cast<size_t>(mine)], w);
        stands[e].on = {{static_cast<uint32_t>(mine), 0.0}};
      } else if (!pe.send && pe.replayable && pe.peer >= 0) {
        const std::vector<uint32_t>& channel = plans[static_cast<size_t>(pe.peer)].sends_to[r];
        if (pe.channel_pos < channel.size()) {
          const int64_t m = id[static_cast<size_t>(pe.peer)][channel[pe.channel_pos]];
          if (m >= 0) w.on.emplace_back(static_cast<uint32_t>(m), 0.0);
        }
        sort_unique(w);
        stands[e] = std::move(w);
      } else {
        if (pe.compute) {
          const double s = static_cast<double>(pe.think_ns) * 1e-9;
          for (auto& on : w.on) on.second += s;
          w.floor_s += s;
        }
        stands[e] = std::move(w);
      }
    }
  }
  return out;
}

JobMessages job_messages(const trace::Job& job, const RankMap& map, const PlanOptions& options,
                         const Copies& copies) {
  std::vector<RankPlan> plans;
  plans.reserve(static_cast<size_t>(map.world_size()));
  for (int r = 0; r < map.world_size(); ++r) {
    plans.push_back(build_rank_plan(job, map, r, options, copies));
  }
  return plan_messages(plans, options.mode);
}

}  // namespace dlcnet::replay
