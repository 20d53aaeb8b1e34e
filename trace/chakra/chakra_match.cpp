#include "trace/chakra/chakra_match.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

namespace dlcnet::trace::chakra {
namespace {

using Key = std::tuple<int64_t, int64_t, int64_t>;  // src, dst, tag

struct Side {
  const Rank* rank;
  const Node* node;
};

void add(Diagnostics* diag, Problem p, const Side& s, const std::string& what) {
  if (diag == nullptr) return;
  if (diag->wants(p)) {
    diag->add(p, s.rank->file, s.node->line, describe(*s.node) + ": " + what);
  } else {
    diag->count(p);
  }
}

// "field 'comm_size'" (an ET file), "field 'bytes'" (a native CSV file).
std::string field(const Side& s, std::string_view chakra_field) {
  return "field '" + std::string(field_name(*s.node, chakra_field)) + "'";
}

std::string key_text(const Key& k) {
  return "comm_src " + std::to_string(std::get<0>(k)) + ", comm_dst " +
         std::to_string(std::get<1>(k)) + ", comm_tag " + std::to_string(std::get<2>(k));
}

// The peer must be another rank of the job.
bool peer_ok(const Job& job, const Side& s, int64_t peer, const char* which, Diagnostics* diag) {
  if (peer < 0 || peer >= job.world || peer == s.rank->rank) {
    add(diag, Problem::kBadOpId, s,
        field(s, which) + ": rank " + std::to_string(peer) +
            (peer == s.rank->rank
                 ? " is the node's own rank"
                 : " is not a rank of this job (0 to " + std::to_string(job.world - 1) + ")"));
    return false;
  }
  return true;
}

void check_bytes(const Rank& r, Diagnostics& diag) {
  uint64_t total = 0;
  for (const Node& n : r.nodes) {
    uint64_t bytes = 0;
    if (n.type == NodeType::kCommSend) bytes = n.size;
    if (n.type == NodeType::kCommColl && __builtin_mul_overflow(n.size, 2u, &bytes)) {
      bytes = UINT64_MAX;
    }
    if (__builtin_add_overflow(total, bytes, &total)) {
      add(&diag, Problem::kBadNumber, Side{&r, &n},
          field(Side{&r, &n}, "comm_size") + ": the rank's bytes overflow 64 bits here");
      return;
    }
  }
}

// The sends and receives of each (comm_src, comm_dst, comm_tag), in file order; a peer that is
// not another rank of the job is reported to `diag` (when given) and left out.
struct Channels {
  std::map<Key, std::vector<Side>> sends;
  std::map<Key, std::vector<Side>> recvs;
};

Channels collect(const Job& job, Diagnostics* diag) {
  Channels c;
  for (const Rank& r : job.ranks) {
    for (const Node& n : r.nodes) {
      const Side s{&r, &n};
      if (n.type == NodeType::kCommSend && peer_ok(job, s, n.dst, "comm_dst", diag)) {
        c.sends[{n.src, n.dst, n.tag}].push_back(s);
      } else if (n.type == NodeType::kCommRecv && peer_ok(job, s, n.src, "comm_src", diag)) {
        c.recvs[{n.src, n.dst, n.tag}].push_back(s);
      }
    }
  }
  return c;
}

}  // namespace

std::vector<MatchedMessage> match_messages(const Job& job) {
  const Channels c = collect(job, nullptr);
  std::vector<MatchedMessage> out;
  const auto position = [](const Side& s) {
    return static_cast<uint32_t>(s.node - s.rank->nodes.data());
  };
  for (const auto& [key, list] : c.sends) {
    const auto it = c.recvs.find(key);
    const size_t matched = it == c.recvs.end() ? 0 : std::min(list.size(), it->second.size());
    for (size_t i = 0; i < matched; ++i) {
      const Side& recv = it->second[i];
      out.push_back({list[i].rank->rank, position(list[i]), recv.rank->rank, position(recv)});
    }
  }
  return out;
}

void check_messages(const Job& job, Diagnostics& diag) {
  for (const Rank& r : job.ranks) check_bytes(r, diag);
  const Channels c = collect(job, &diag);
  const auto& sends = c.sends;
  const auto& recvs = c.recvs;
  // Unmatched only when the peer's file was read: a missing rank is reported once, as such.
  for (const auto& [key, list] : sends) {
    const auto it = recvs.find(key);
    const size_t matched = it == recvs.end() ? 0 : std::min(list.size(), it->second.size());
    for (size_t i = 0; i < matched; ++i) {
      const Node& recv = *it->second[i].node;
      if (list[i].node->size != recv.size) {
        add(&diag, Problem::kUnmatchedMessage, list[i],
            field(list[i], "comm_size") + ": " + std::to_string(list[i].node->size) +
                " B, but its receive (" + where(*it->second[i].rank, recv) + ") has " +
                std::to_string(recv.size) + " B");
      }
    }
    if (job.rank(std::get<1>(key)) == nullptr) continue;
    for (size_t i = matched; i < list.size(); ++i) {
      add(&diag, Problem::kUnmatchedMessage, list[i],
          field(list[i], "comm_dst") + ": a send without its receive: rank " +
              std::to_string(std::get<1>(key)) + " has no " +
              std::string(kind_name(*list[i].node, NodeType::kCommRecv)) + " for it (" +
              key_text(key) + ")");
    }
  }
  for (const auto& [key, list] : recvs) {
    const auto it = sends.find(key);
    const size_t matched = it == sends.end() ? 0 : it->second.size();
    if (job.rank(std::get<0>(key)) == nullptr) continue;
    for (size_t i = matched; i < list.size(); ++i) {
      add(&diag, Problem::kUnmatchedMessage, list[i],
          field(list[i], "comm_src") + ": a receive without its send: rank " +
              std::to_string(std::get<0>(key)) + " has no " +
              std::string(kind_name(*list[i].node, NodeType::kCommSend)) + " for it (" +
              key_text(key) + ")");
    }
  }
}

}  // namespace dlcnet::trace::chakra
