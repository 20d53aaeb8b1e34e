#include "replay/chakra_plan.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "trace/chakra/chakra_graph.hpp"
#include "trace/chakra/chakra_groups.hpp"
#include "trace/chakra/chakra_match.hpp"

namespace dlcnet::replay {
namespace {

namespace ck = trace::chakra;
using ck::NodeType;

std::vector<ck::Step> steps_of(const ck::Job& job, const ck::Rank& r, const ck::Node& n,
                               const ck::CollectiveOptions& coll) {
  return ck::collective_steps(job, r, n, coll);
}

// Microseconds of the trace as replay nanoseconds, scaled; in double, clamped far from overflow.
int64_t scaled_us(uint64_t us, double scale) {
  const double ns = static_cast<double>(us) * 1e3 * scale;
  constexpr double kMax = static_cast<double>(INT64_MAX / 4);
  return ns >= kMax ? INT64_MAX / 4 : static_cast<int64_t>(ns + 0.5);
}

// A rank's nodes as the plan lays them out: in dependency order, each node's entries one
// after the other (a collective: start, steps, end).
struct Layout {
  std::vector<std::vector<uint32_t>> deps;  // per node: the positions of its dependencies
  std::vector<uint32_t> order;              // node positions, dependencies first
  std::vector<uint32_t> first;              // per node: its first entry
  std::vector<uint32_t> count;              // per node: its entries
};

Layout make_layout(const ck::Job& job, const ck::Rank& r, const ck::CollectiveOptions& coll) {
  Layout l;
  l.deps = ck::resolve_dependencies(r);
  l.order = ck::dependency_order(l.deps);
  l.first.assign(r.nodes.size(), 0);
  l.count.assign(r.nodes.size(), 1);
  uint32_t next = 0;
  for (const uint32_t i : l.order) {
    const ck::Node& n = r.nodes[i];
    if (n.type == NodeType::kCommColl) {
      l.count[i] = static_cast<uint32_t>(steps_of(job, r, n, coll).size()) + 2;
    }
    l.first[i] = next;
    next += l.count[i];
  }
  return l;
}

// The other end of a rank's collective: the peer's node of the same collective, and which of
// its steps send to this rank, in order.
struct PeerSide {
  const ck::Node* node = nullptr;
  uint32_t first = 0;  // the node's first entry (its start) in the peer's plan
  std::vector<std::pair<uint32_t, uint64_t>> sends;  // step index, bytes
  size_t next = 0;
};

class Builder {
 public:
  Builder(const ck::Job& job, int rank, const PlanOptions& o, const ck::CollectiveOptions& coll)
      : job_(job), me_(job.ranks[static_cast<size_t>(rank)]), o_(o), coll_(coll) {
    layouts_.resize(static_cast<size_t>(job.world));
    for (const ck::MatchedMessage& m : ck::match_messages(job)) {
      if (m.receiver == rank) sender_of_.emplace(m.recv_node, std::pair(m.sender, m.send_node));
    }
    first_start_ = UINT64_MAX;
    for (const ck::Node& n : me_.nodes) {
      if (n.start_us != 0) first_start_ = std::min(first_start_, n.start_us);
    }
  }

  RankPlan build() {
    p_.rank = me_.rank;
    p_.node = static_cast<uint16_t>(me_.rank);
    p_.timeline.node = p_.node;
    p_.sends_to.resize(static_cast<size_t>(job_.world));
    p_.recvs_from.resize(static_cast<size_t>(job_.world));
    p_.part_bytes = std::max<uint64_t>(o_.part_bytes, 1);
    p_.region_bytes =
        std::max<uint64_t>(64, std::min(chakra_messages(job_, coll_).largest, p_.part_bytes));
    p_.open_loop = o_.mode == Mode::timed;
    const Layout& l = layout(me_.rank);
    for (const uint32_t pos : l.order) {
      const ck::Node& n = me_.nodes[pos];
      std::vector<uint32_t> deps;
      for (const uint32_t d : l.deps[pos]) deps.push_back(l.first[d] + l.count[d] - 1);
      const uint32_t e = add_entry(n, pos, deps);
      if (n.type == NodeType::kCommSend) {
        message(e, true, static_cast<int32_t>(n.dst), n.size, key(n), 0, 0);
      } else if (n.type == NodeType::kCommRecv) {
        const auto it = sender_of_.find(pos);
        if (it == sender_of_.end())
          throw Error(ck::node_error(me_, n, "field 'comm_src': a receive without its send"));
        const auto [s, sn] = it->second;
        message(e, false, s, n.size, key(job_.ranks[static_cast<size_t>(s)].nodes[sn]), 0,
                layout(s).first[sn]);
      } else if (n.type == NodeType::kCommColl) {
        add_collective(n, pos, e);
      } else {
        p_.entries[e].compute = true;
        if (o_.mode == Mode::dag) p_.entries[e].think_ns = scaled_us(n.duration_us, o_.time_scale);
      }
    }
    std::sort(recvs_.begin(), recvs_.end());
    for (const auto& [peer, sender_entry, e] : recvs_) {
      auto& list = p_.recvs_from[static_cast<size_t>(peer)];
      p_.entries[e].channel_pos = static_cast<uint32_t>(list.size());
      list.push_back(e);
    }
    finish_plan(p_);
    return std::move(p_);
  }

 private:
  const Layout& layout(int32_t r) {
    auto& slot = layouts_[static_cast<size_t>(r)];
    if (!slot) slot = make_layout(job_, job_.ranks[static_cast<size_t>(r)], coll_);
    return *slot;
  }

  static int32_t key(const ck::Node& n) { return static_cast<int32_t>(n.id); }

  uint32_t add_entry(const ck::Node& n, uint32_t pos, const std::vector<uint32_t>& deps) {
    TimelineEntry te;
    te.record = pos;
    te.trace_time_ns = scaled_us(n.start_us, 1.0);
    te.dep_begin = static_cast<uint32_t>(p_.timeline.deps.size());
    p_.timeline.deps.insert(p_.timeline.deps.end(), deps.begin(), deps.end());
    p_.timeline.entries.push_back(te);
    PlanEntry pe;
    if (n.start_us != 0 && first_start_ != UINT64_MAX) {
      pe.timed_ns = scaled_us(n.start_us - first_start_, o_.time_scale);
    }
    p_.entries.push_back(pe);
    return static_cast<uint32_t>(p_.entries.size() - 1);
  }

  void message(uint32_t e, bool send, int32_t peer, uint64_t bytes, int32_t key, int32_t opnum,
               uint32_t sender_entry) {
    PlanEntry& pe = p_.entries[e];
    pe.send = send;
    pe.peer = peer;
    pe.bytes = bytes;
    pe.parts = parts_for(bytes, p_.part_bytes);
    pe.replayable = true;
    pe.key = key;
    pe.msg_opnum = opnum;
    p_.timeline.entries[e].opnum = opnum;
    if (send) {
      auto& list = p_.sends_to[static_cast<size_t>(peer)];
      pe.channel_pos = static_cast<uint32_t>(list.size());
      list.push_back(e);
    } else {
      recvs_.emplace_back(peer, sender_entry, e);
    }
  }

  // ck::group_collectives(), kept per rank and group.
  const std::vector<uint32_t>& colls(int32_t rank, std::string_view pg) {
    const auto [it, fresh] = colls_.try_emplace({rank, pg});
    if (fresh) it->second = ck::group_collectives(job_.ranks[static_cast<size_t>(rank)], pg);
    return it->second;
  }

  PeerSide& peer_side(std::map<int32_t, PeerSide>& sides, int32_t peer, std::string_view pg,
                      size_t k) {
    const auto [it, fresh] = sides.try_emplace(peer);
    PeerSide& s = it->second;
    if (!fresh) return s;
    const ck::Rank& r = job_.ranks[static_cast<size_t>(peer)];
    const uint32_t pos = colls(peer, pg)[k];
    s.node = &r.nodes[pos];
    s.first = layout(peer).first[pos];
    const std::vector<ck::Step> theirs = steps_of(job_, r, *s.node, coll_);
    for (uint32_t j = 0; j < theirs.size(); ++j) {
      if (theirs[j].send && theirs[j].peer == me_.rank) s.sends.emplace_back(j, theirs[j].bytes);
    }
    return s;
  }

  void add_collective(const ck::Node& n, uint32_t pos, uint32_t start) {
    p_.entries[start].compute = true;
    const std::vector<uint32_t>& mine_in_group = colls(me_.rank, n.pg_name());
    const auto k = static_cast<size_t>(
        std::lower_bound(mine_in_group.begin(), mine_in_group.end(), pos) - mine_in_group.begin());
    std::map<int32_t, PeerSide> sides;
    std::vector<uint32_t> steps_done, previous, current;
    uint32_t round = 0;
    const std::vector<ck::Step> mine = steps_of(job_, me_, n, coll_);
    for (uint32_t j = 0; j < mine.size(); ++j) {
      const ck::Step& s = mine[j];
      if (s.round != round) {
        previous = s.round == round + 1 ? std::move(current) : std::vector<uint32_t>{};
        current.clear();
        round = s.round;
      }
      const bool after_previous = s.send && s.round > 0 && !previous.empty();
      const uint32_t e = add_entry(n, pos, after_previous ? previous : std::vector{start});
      steps_done.push_back(e);
      if (s.send) {
        message(e, true, s.peer, s.bytes, key(n), static_cast<int32_t>(j), 0);
        continue;
      }
      PeerSide& side = peer_side(sides, s.peer, n.pg_name(), k);
      if (side.next >= side.sends.size() || side.sends[side.next].second != s.bytes) {
        throw Error(ck::node_error(me_, n,
                                   "field 'comm_type': its steps do not meet rank " +
                                       std::to_string(s.peer) + "'s " + ck::describe(*side.node)));
      }
      const uint32_t their_step = side.sends[side.next++].first;
      message(e, false, s.peer, s.bytes, key(*side.node), static_cast<int32_t>(their_step),
              side.first + 1 + their_step);
      current.push_back(e);
    }
    const uint32_t end = add_entry(n, pos, steps_done.empty() ? std::vector{start} : steps_done);
    p_.entries[end].compute = true;
  }

  const ck::Job& job_;
  const ck::Rank& me_;
  const PlanOptions& o_;
  const ck::CollectiveOptions& coll_;
  std::vector<std::optional<Layout>> layouts_;
  std::unordered_map<uint32_t, std::pair<int32_t, uint32_t>> sender_of_;         // receive -> send
  std::map<std::pair<int32_t, std::string_view>, std::vector<uint32_t>> colls_;  // views into job_
  uint64_t first_start_ = UINT64_MAX;
  std::vector<std::tuple<int32_t, uint32_t, uint32_t>> recvs_;  // peer, sender's entry, entry
  RankPlan p_;
};

}  // namespace

RankPlan build_chakra_plan(const ck::Job& job, int rank, const PlanOptions& options,
                           const ck::CollectiveOptions& coll) {
  return Builder(job, rank, options, coll).build();
}

ChakraMessages chakra_messages(const ck::Job& job, const ck::CollectiveOptions& coll) {
  ChakraMessages m;
  for (const ck::Rank& r : job.ranks) {
    for (const ck::Node& n : r.nodes) {
      if (n.type == NodeType::kCommSend) {
        ++m.count;
        m.largest = std::max(m.largest, n.size);
      } else if (n.type == NodeType::kCommColl) {
        for (const ck::Step& s : steps_of(job, r, n, coll)) {
          if (!s.send) continue;
          ++m.count;
          m.largest = std::max(m.largest, s.bytes);
        }
      }
    }
  }
  return m;
}

namespace {

void mix_text(FingerprintMix& mix, std::string_view text) {
  mix(text.size());
  for (const char c : text) mix(static_cast<uint64_t>(static_cast<unsigned char>(c)));
}

}  // namespace

uint64_t chakra_fingerprint(const ck::Job& job, const PlanOptions& options,
                            const ck::CollectiveOptions& coll) noexcept {
  FingerprintMix mix;
  mix(static_cast<uint64_t>(job.world));
  for (const ck::Rank& r : job.ranks) {
    mix(static_cast<uint64_t>(r.rank));
    mix(r.nodes.size());
    for (const ck::Node& n : r.nodes) {
      for (const uint64_t v :
           {n.id, static_cast<uint64_t>(n.type), n.size, static_cast<uint64_t>(n.src),
            static_cast<uint64_t>(n.dst), static_cast<uint64_t>(n.tag),
            static_cast<uint64_t>(n.collective), n.start_us, n.duration_us}) {
        mix(v);
      }
      mix_text(mix, n.pg_name());
      for (const ck::Ids deps : {n.ctrl_deps(), n.data_deps()}) {
        mix(deps.size());
        for (const uint64_t d : deps) mix(d);
      }
    }
  }
  for (const auto& [pg, group] : job.groups) {
    mix_text(mix, pg);
    mix(group.ranks.size());
    for (const int32_t r : group.ranks) mix(static_cast<uint64_t>(r));
  }
  mix_plan_options(mix, options);
  mix(static_cast<uint64_t>(coll.root));
  mix(static_cast<uint64_t>(coll.size_reading));
  return mix.value();
}

}  // namespace dlcnet::replay
