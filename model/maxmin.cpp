#include "model/maxmin.hpp"

#include <algorithm>
#include <cassert>
#include <functional>

namespace dlcnet::model {
namespace {

// Below this unfixed weight a link has no variable left to share (weights are flow counts).
constexpr double kWeightEpsilon = 1e-9;

}  // namespace

void MaxMin::solve(std::span<const double> capacity, std::span<const MaxMinVar> vars,
                   std::span<double> rate) {
  assert(rate.size() == vars.size());
  const size_t links = capacity.size();
  remaining_.assign(capacity.begin(), capacity.end());
  weight_.assign(links, 0);
  version_.assign(links, 0);
  done_.assign(links, 0);
  fixed_.assign(vars.size(), 0);
  // Users of each link, in compressed rows: first_[l] .. first_[l + 1].
  first_.assign(links + 1, 0);
  for (const MaxMinVar& v : vars) {
    for (uint32_t l : {v.link_a, v.link_b}) {
      if (l == kNoLink) continue;
      weight_[l] += v.weight;
      ++first_[l + 1];
    }
  }
  for (size_t l = 0; l < links; ++l) first_[l + 1] += first_[l];
  users_.resize(first_[links]);
  {
    std::vector<uint32_t>& fill = version_;  // reused as the fill cursor, reset below
    for (size_t l = 0; l < links; ++l) fill[l] = first_[l];
    for (uint32_t i = 0; i < vars.size(); ++i) {
      for (uint32_t l : {vars[i].link_a, vars[i].link_b})
        if (l != kNoLink) users_[fill[l]++] = i;
    }
    std::fill(version_.begin(), version_.end(), 0);
  }
  heap_.clear();
  for (uint32_t l = 0; l < links; ++l)
    if (weight_[l] > kWeightEpsilon) heap_.push_back({remaining_[l] / weight_[l], l, 0});
  std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
  for (uint32_t i = 0; i < vars.size(); ++i) {
    if (vars[i].link_a == kNoLink && vars[i].link_b == kNoLink) {
      rate[i] = std::numeric_limits<double>::infinity();
      fixed_[i] = 1;
    }
  }
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const Share s = heap_.back();
    heap_.pop_back();
    if (done_[s.link] || s.version != version_[s.link]) continue;  // stale entry
    done_[s.link] = 1;
    const double share = std::max(0.0, s.share);
    for (uint32_t k = first_[s.link]; k < first_[s.link + 1]; ++k) {
      const uint32_t i = users_[k];
      if (fixed_[i]) continue;
      fixed_[i] = 1;
      rate[i] = share;
      const MaxMinVar& v = vars[i];
      const uint32_t other = v.link_a == s.link ? v.link_b : v.link_a;
      if (other == kNoLink || other == s.link || done_[other]) continue;
      remaining_[other] = std::max(0.0, remaining_[other] - v.weight * share);
      weight_[other] -= v.weight;
      if (weight_[other] <= kWeightEpsilon) {
        done_[other] = 1;
        continue;
      }
      heap_.push_back({remaining_[other] / weight_[other], other, ++version_[other]});
      std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    }
  }
}

}  // namespace dlcnet::model
