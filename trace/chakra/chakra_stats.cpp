#include "trace/chakra/chakra_stats.hpp"

#include "core/intervals.hpp"
#include "trace/chakra/chakra_groups.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace dlcnet::trace::chakra {

namespace {

using Interval = dlcnet::Interval<uint64_t>;  // in microseconds

// RankStats::overlap_us of a rank's nodes.
std::optional<uint64_t> overlap(const Rank& r) {
  std::vector<Interval> compute, comm;
  for (const Node& n : r.nodes) {
    const bool is_comm = n.type == NodeType::kCommSend || n.type == NodeType::kCommRecv ||
                         n.type == NodeType::kCommColl;
    if ((n.type != NodeType::kComp && !is_comm) || n.duration_us == 0) continue;
    if (n.start_us == 0) return std::nullopt;
    const uint64_t end =
        n.start_us > UINT64_MAX - n.duration_us ? UINT64_MAX : n.start_us + n.duration_us;
    (is_comm ? comm : compute).emplace_back(n.start_us, end);
  }
  if (compute.empty() && comm.empty()) return std::nullopt;
  return intersection(merged(std::move(compute)), merged(std::move(comm)));
}

}  // namespace

Traffic RankStats::total() const {
  Traffic t = p2p;
  t += collective;
  return t;
}

JobStats compute_stats(const Job& job, const CollectiveOptions& options) {
  JobStats s;
  s.world = job.world;
  s.options = options;
  std::map<std::pair<Collective, std::string_view>, CollectiveStats> colls;
  for (const Rank& r : job.ranks) {
    RankStats rs;
    rs.rank = r.rank;
    rs.file = r.file;
    rs.overlap_us = overlap(r);
    for (const Node& n : r.nodes) {
      ++rs.nodes_by_type[static_cast<size_t>(n.type)];
      switch (n.type) {
        case NodeType::kComp:
          rs.compute_us += n.duration_us;
          break;
        case NodeType::kCommSend:
          rs.comm_us += n.duration_us;
          rs.p2p += Traffic{1, n.size, 0, 0};
          break;
        case NodeType::kCommRecv:
          rs.comm_us += n.duration_us;
          rs.p2p += Traffic{0, 0, 1, n.size};
          break;
        case NodeType::kCommColl: {
          rs.comm_us += n.duration_us;
          ++rs.collectives;
          const Traffic t = collective_traffic(job, r, n, options);
          rs.collective += t;
          CollectiveStats& c = colls[{n.collective, n.pg_name()}];
          c.type = n.collective;
          c.pg_name = n.pg_name();
          c.group_ranks = static_cast<int32_t>(group_ranks(job, n.pg_name()).size());
          ++c.nodes;
          c.comm_bytes += n.size;
          c.traffic += t;
          break;
        }
        default:
          rs.other_us += n.duration_us;
      }
    }
    s.ranks.push_back(std::move(rs));
  }
  for (auto& [key, c] : colls) s.collectives.push_back(std::move(c));
  return s;
}

}  // namespace dlcnet::trace::chakra
