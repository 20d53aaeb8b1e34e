#include "replay/chakra_spans.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace dlcnet::replay {

namespace ck = trace::chakra;

std::vector<CollectiveSpan> collective_spans(const ck::Job& job, std::span<const Flow> flows) {
  std::vector<CollectiveSpan> out;
  std::map<std::pair<int32_t, uint64_t>, size_t> of_node;  // (rank, node id) -> collective
  for (const ck::Rank& r : job.ranks) {
    size_t k = 0;
    for (const ck::Node& n : r.nodes) {
      if (n.type != ck::NodeType::kCommColl) continue;
      if (k == out.size()) {
        out.push_back({});
        out.back().number = static_cast<uint32_t>(k + 1);
        out.back().type = n.collective;
        out.back().comm_size = n.size;
      }
      out[k].trace_duration_us = std::max(out[k].trace_duration_us, n.duration_us);
      of_node.emplace(std::pair(r.rank, n.id), k++);
    }
  }
  for (const Flow& f : flows) {
    const auto it = of_node.find({f.src, static_cast<uint64_t>(f.key)});
    if (f.key < 0 || it == of_node.end()) continue;
    CollectiveSpan& s = out[it->second];
    const double arrival = f.start_ns + f.fct_ns;
    s.first_post_ns = s.messages == 0 ? f.start_ns : std::min(s.first_post_ns, f.start_ns);
    s.last_arrival_ns = s.messages == 0 ? arrival : std::max(s.last_arrival_ns, arrival);
    ++s.messages;
    s.bytes += f.bytes;
  }
  return out;
}

}  // namespace dlcnet::replay
