#include "model/maxmin.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

namespace dlcnet::model {
namespace {

// Below this unfixed weight a link has no variable left to share (weights are flow counts).
constexpr double kWeightEpsilon = 1e-9;
constexpr size_t kNone = std::numeric_limits<size_t>::max();

}  // namespace

void MaxMin::solve(std::span<const double> capacity, std::span<const MaxMinVar> vars,
                   std::span<double> rate) {
  assert(rate.size() == vars.size());
  const size_t links = capacity.size();
  remaining_.assign(capacity.begin(), capacity.end());
  weight_.assign(links, 0);
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
  cursor_.assign(first_.begin(), first_.end() - 1);
  for (uint32_t i = 0; i < vars.size(); ++i) {
    for (uint32_t l : {vars[i].link_a, vars[i].link_b})
      if (l != kNoLink) users_[cursor_[l]++] = i;
  }
  // The links still shared, with their share (remaining capacity per unfixed weight, updated
  // when a variable on them is fixed); each round fixes the one with the smallest. A star has
  // few links in use (two per host), so a scan of the open ones beats a heap of shares updated
  // per variable.
  open_.clear();
  share_.resize(links);
  for (uint32_t l = 0; l < links; ++l) {
    if (weight_[l] > kWeightEpsilon) {
      open_.push_back(l);
      share_[l] = remaining_[l] / weight_[l];
    }
  }
  for (uint32_t i = 0; i < vars.size(); ++i) {
    if (vars[i].link_a == kNoLink && vars[i].link_b == kNoLink) {
      rate[i] = std::numeric_limits<double>::infinity();
      fixed_[i] = 1;
    }
  }
  while (!open_.empty()) {
    // The open link with the smallest share; links left without unfixed weight close here.
    size_t best = kNone;
    double best_share = std::numeric_limits<double>::infinity();
    for (size_t k = 0; k < open_.size();) {
      const uint32_t l = open_[k];
      if (weight_[l] <= kWeightEpsilon) {
        done_[l] = 1;
        open_[k] = open_.back();
        open_.pop_back();
        continue;
      }
      if (share_[l] < best_share) {
        best_share = share_[l];
        best = k;
      }
      ++k;
    }
    if (best == kNone) break;
    const uint32_t link = open_[best];
    open_[best] = open_.back();
    open_.pop_back();
    done_[link] = 1;
    const double share = std::max(0.0, best_share);
    for (uint32_t k = first_[link]; k < first_[link + 1]; ++k) {
      const uint32_t i = users_[k];
      if (fixed_[i]) continue;
      fixed_[i] = 1;
      rate[i] = share;
      const MaxMinVar& v = vars[i];
      const uint32_t other = v.link_a == link ? v.link_b : v.link_a;
      if (other == kNoLink || done_[other]) continue;
      remaining_[other] = std::max(0.0, remaining_[other] - v.weight * share);
      weight_[other] -= v.weight;
      if (weight_[other] > kWeightEpsilon) share_[other] = remaining_[other] / weight_[other];
    }
  }
}

}  // namespace dlcnet::model
