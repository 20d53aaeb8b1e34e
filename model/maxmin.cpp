#include "model/maxmin.hpp"

#include <algorithm>
#include <cassert>
#include <limits>

namespace dlcnet::model {
namespace {

// Below this unfixed weight a link has no variable left to share (weights are flow counts).
constexpr double kWeightEpsilon = 1e-9;
constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

}  // namespace

void MaxMin::solve(std::span<const double> capacity, std::span<const MaxMinVar> vars,
                   std::span<double> rate) {
  assert(rate.size() == vars.size());
  const uint32_t links = static_cast<uint32_t>(capacity.size());
  const uint32_t count = static_cast<uint32_t>(vars.size());
  remaining_.resize(links);
  weight_.resize(links);
  share_.resize(links);
  done_.resize(links);
  first_.resize(links + 1);
  cursor_.resize(links);
  open_.resize(links);
  fixed_.resize(count);
  users_.resize(2 * static_cast<size_t>(count));
  // Plain pointers: the compiler need not reload every vector's data after each store.
  double* __restrict remaining = remaining_.data();
  double* __restrict weight = weight_.data();
  double* __restrict share = share_.data();
  uint8_t* __restrict done = done_.data();
  uint8_t* __restrict fixed = fixed_.data();
  uint32_t* __restrict first = first_.data();
  uint32_t* __restrict cursor = cursor_.data();
  uint32_t* __restrict open = open_.data();
  uint32_t* __restrict users = users_.data();
  const MaxMinVar* __restrict var = vars.data();
  double* __restrict out = rate.data();
  for (uint32_t l = 0; l < links; ++l) {
    remaining[l] = capacity[l];
    weight[l] = 0;
    done[l] = 0;
    first[l] = 0;
  }
  first[links] = 0;
  // Users of each link, in compressed rows: first[l] .. first[l + 1].
  for (uint32_t i = 0; i < count; ++i) {
    const MaxMinVar& v = var[i];
    fixed[i] = 0;
    if (v.link_a != kNoLink) {
      weight[v.link_a] += v.weight;
      ++first[v.link_a + 1];
    }
    if (v.link_b != kNoLink) {
      weight[v.link_b] += v.weight;
      ++first[v.link_b + 1];
    }
  }
  for (uint32_t l = 0; l < links; ++l) {
    first[l + 1] += first[l];
    cursor[l] = first[l];
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (var[i].link_a != kNoLink) users[cursor[var[i].link_a]++] = i;
    if (var[i].link_b != kNoLink) users[cursor[var[i].link_b]++] = i;
  }
  // The links still shared, with their share (remaining capacity per unfixed weight, updated
  // when a variable on them is fixed); each round fixes the one with the smallest. A star has
  // few links in use (two per host), so a scan of the open ones beats a heap of shares updated
  // per variable.
  uint32_t opened = 0;
  for (uint32_t l = 0; l < links; ++l) {
    if (weight[l] > kWeightEpsilon) {
      open[opened++] = l;
      share[l] = remaining[l] / weight[l];
    }
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (var[i].link_a == kNoLink && var[i].link_b == kNoLink) {
      out[i] = std::numeric_limits<double>::infinity();
      fixed[i] = 1;
    }
  }
  // Links whose unfixed weight fell to nothing since the last round: the next scan closes them.
  uint32_t closing = 0;
  while (opened > 0) {
    // The open link with the smallest share (the first of equals, in the list's order); links
    // left without unfixed weight close here, the last open link taking their place. Once those
    // are gone, the rest of the list is a plain search for the minimum.
    uint32_t best = kNone;
    double best_share = std::numeric_limits<double>::infinity();
    uint32_t k = 0;
    for (; closing > 0 && k < opened;) {
      const uint32_t l = open[k];
      if (weight[l] <= kWeightEpsilon) {
        done[l] = 1;
        open[k] = open[--opened];
        --closing;
        continue;
      }
      if (share[l] < best_share) {
        best_share = share[l];
        best = k;
      }
      ++k;
    }
    for (; k < opened; ++k) {
      const double s = share[open[k]];
      const bool less = s < best_share;
      best = less ? k : best;
      best_share = less ? s : best_share;
    }
    if (best == kNone) break;
    const uint32_t link = open[best];
    open[best] = open[--opened];
    done[link] = 1;
    const double s = std::max(0.0, best_share);
    for (uint32_t j = first[link]; j < first[link + 1]; ++j) {
      const uint32_t i = users[j];
      if (fixed[i]) continue;
      fixed[i] = 1;
      out[i] = s;
      const MaxMinVar& v = var[i];
      const uint32_t other = v.link_a == link ? v.link_b : v.link_a;
      if (other == kNoLink || done[other]) continue;
      remaining[other] = std::max(0.0, remaining[other] - v.weight * s);
      const bool was_open = weight[other] > kWeightEpsilon;
      weight[other] -= v.weight;
      if (weight[other] > kWeightEpsilon) {
        share[other] = remaining[other] / weight[other];
      } else if (was_open) {
        ++closing;
      }
    }
  }
}

}  // namespace dlcnet::model
