#include "replay/replay_rank_map.hpp"

#include <charconv>

#include "core/error.hpp"

namespace dlcnet::replay {
namespace {

bool replayed(const trace::Node& n) {
  return n.role != trace::Role::kScheduler;
}

int parse_int(std::string_view s) {
  int v = -1;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size() ? v : -1;
}

int find_node(const trace::Job& job, std::string_view name) {
  for (const trace::Node& n : job.nodes) {
    if (replayed(n) && n.name() == name) return n.rank;
  }
  const int r = parse_int(name);
  if (r >= 0 && static_cast<size_t>(r) < job.nodes.size() && replayed(job.nodes[r])) return r;
  return -1;
}

}  // namespace

RankMap RankMap::make(const trace::Job& job, std::string_view spec) {
  RankMap m;
  size_t replay_nodes = 0;
  for (const trace::Node& n : job.nodes) {
    if (!replayed(n)) continue;
    ++replay_nodes;
    if (!n.present) {
      throw Error("cannot replay " + n.name() +
                  ": its trace file is absent from the job (every worker and server needs one)");
    }
  }
  m.rank_of_node_.assign(job.nodes.size(), -1);
  m.node_of_rank_.assign(replay_nodes, 0);
  std::vector<bool> rank_taken(replay_nodes, false);
  size_t pos = 0;
  while (pos < spec.size()) {
    size_t comma = spec.find(',', pos);
    if (comma == std::string_view::npos) comma = spec.size();
    const std::string_view entry = spec.substr(pos, comma - pos);
    pos = comma + 1;
    if (entry.empty()) continue;
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos) {
      throw Error("--map: '" + std::string(entry) + "' is not NODE=RANK (e.g. server0=0)");
    }
    const int node = find_node(job, entry.substr(0, eq));
    if (node < 0) {
      throw Error("--map: '" + std::string(entry.substr(0, eq)) +
                  "' is not a worker or server of this job (workers 0.." +
                  std::to_string(job.num_workers) + ", servers 0.." +
                  std::to_string(job.num_servers) + ", exclusive)");
    }
    const int rank = parse_int(entry.substr(eq + 1));
    if (rank < 0 || static_cast<size_t>(rank) >= replay_nodes) {
      throw Error("--map: rank '" + std::string(entry.substr(eq + 1)) + "' in '" +
                  std::string(entry) + "' is outside 0.." + std::to_string(replay_nodes - 1));
    }
    if (rank_taken[rank] || m.rank_of_node_[node] >= 0) {
      throw Error("--map: '" + std::string(entry) + "' maps a node or a rank a second time");
    }
    rank_taken[rank] = true;
    m.rank_of_node_[node] = rank;
    m.node_of_rank_[rank] = static_cast<uint16_t>(node);
  }
  size_t next = 0;
  for (const trace::Node& n : job.nodes) {
    if (!replayed(n) || m.rank_of_node_[n.rank] >= 0) continue;
    while (rank_taken[next]) ++next;
    rank_taken[next] = true;
    m.rank_of_node_[n.rank] = static_cast<int>(next);
    m.node_of_rank_[next] = n.rank;
  }
  return m;
}

nlohmann::json RankMap::to_json(const trace::Job& job) const {
  nlohmann::json a = nlohmann::json::array();
  for (size_t r = 0; r < node_of_rank_.size(); ++r) {
    const trace::Node& n = job.nodes[node_of_rank_[r]];
    a.push_back({{"rank", r},
                 {"node", n.name()},
                 {"trace_rank", n.rank},
                 {"role", std::string(trace::role_name(n.role))},
                 {"trace_host", n.hostname}});
  }
  return a;
}

std::string RankMap::describe(const trace::Job& job) const {
  std::string s;
  for (size_t r = 0; r < node_of_rank_.size(); ++r) {
    if (!s.empty()) s += ", ";
    s += "rank " + std::to_string(r) + " = " + job.nodes[node_of_rank_[r]].name();
  }
  return s;
}

}  // namespace dlcnet::replay
