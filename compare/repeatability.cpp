#include "compare/repeatability.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <vector>

namespace dlcnet::compare {
namespace {

// One group's messages in a canonical order: by sender, receiver, start.
struct Group {
  std::vector<const Matched*> order;
  // The shape: every message's (src, dst, bytes) in that order.
  std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> shape;
};

}  // namespace

Repeatability measured_repeatability(std::span<const Matched> matched) {
  std::map<int32_t, Group> groups;
  for (const Matched& m : matched) {
    if (m.group >= 0) groups[m.group].order.push_back(&m);
  }
  for (auto& [id, g] : groups) {
    std::sort(g.order.begin(), g.order.end(), [](const Matched* a, const Matched* b) {
      return std::tie(a->src, a->dst, a->start_ns, a->sport) <
             std::tie(b->src, b->dst, b->start_ns, b->sport);
    });
    g.shape.reserve(g.order.size());
    for (const Matched* m : g.order) g.shape.emplace_back(m->src, m->dst, m->bytes);
  }
  Repeatability r;
  std::vector<double> change;
  // Each group against the previous group of its shape (groups in number order).
  std::map<std::vector<std::tuple<uint32_t, uint32_t, uint64_t>>, const Group*> last;
  for (const auto& [id, g] : groups) {
    auto [it, fresh] = last.try_emplace(g.shape, &g);
    if (fresh) continue;
    const Group& before = *it->second;
    ++r.group_pairs;
    for (size_t i = 0; i < g.order.size(); ++i) {
      const double a = before.order[i]->measured_ns;
      const double b = g.order[i]->measured_ns;
      if (a > 0) change.push_back(std::fabs(b - a) / a);
    }
    it->second = &g;
  }
  r.messages = change.size();
  r.abs_change = summarize_latency(change);
  return r;
}

}  // namespace dlcnet::compare
