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
  head_.resize(links);
  open_.resize(links);
  at_.resize(links);
  next_.resize(2 * static_cast<size_t>(count));
  // Plain pointers: the compiler need not reload every vector's data after each store.
  double* __restrict remaining = remaining_.data();
  double* __restrict weight = weight_.data();
  double* __restrict share = share_.data();
  uint8_t* __restrict done = done_.data();
  uint32_t* __restrict head = head_.data();
  uint32_t* __restrict open = open_.data();
  uint32_t* __restrict at = at_.data();
  uint32_t* __restrict next = next_.data();
  const MaxMinVar* __restrict var = vars.data();
  double* __restrict out = rate.data();
  for (uint32_t l = 0; l < links; ++l) {
    remaining[l] = capacity[l];
    weight[l] = 0;
    done[l] = 0;
    head[l] = kNone;
  }
  // Users of each link, in one pass: a list per link through next[], entry 2i (+1 for the
  // second link) standing for variable i. Built from the last variable back, so every list is
  // in the variables' order.
  for (uint32_t i = count; i-- > 0;) {
    const MaxMinVar& v = var[i];
    if (v.link_a != kNoLink) {
      weight[v.link_a] += v.weight;
      next[2 * i] = head[v.link_a];
      head[v.link_a] = 2 * i;
    }
    if (v.link_b != kNoLink) {
      weight[v.link_b] += v.weight;
      next[2 * i + 1] = head[v.link_b];
      head[v.link_b] = 2 * i + 1;
    }
    if (v.link_a == kNoLink && v.link_b == kNoLink)
      out[i] = std::numeric_limits<double>::infinity();
  }
  // The links still shared, with their share (remaining capacity per unfixed weight, updated
  // when a variable on them is fixed); each round fixes the one with the smallest. A star has
  // few links in use (two per host), so a scan of the open ones beats a heap of shares updated
  // per variable.
  uint32_t opened = 0;
  // Closing a link: the last open link takes its place in the list.
  const auto close = [&](uint32_t l) {
    done[l] = 1;
    const uint32_t k = at[l];
    open[k] = open[--opened];
    at[open[k]] = k;
  };
  for (uint32_t l = 0; l < links; ++l) {
    if (weight[l] > kWeightEpsilon) {
      at[l] = opened;
      open[opened++] = l;
      share[l] = remaining[l] / weight[l];
    }
  }
  while (opened > 0) {
    // The open link with the smallest share (the first of equals, in the list's order): a
    // branch-free search for the minimum.
    uint32_t best = 0;
    double best_share = share[open[0]];
    for (uint32_t k = 1; k < opened; ++k) {
      const double s = share[open[k]];
      const bool less = s < best_share;
      best = less ? k : best;
      best_share = less ? s : best_share;
    }
    const uint32_t link = open[best];
    close(link);
    const double s = std::max(0.0, best_share);
    for (uint32_t e = head[link]; e != kNone; e = next[e]) {
      // A user whose other link closed before this one was fixed there.
      const uint32_t i = e / 2;
      const MaxMinVar& v = var[i];
      const uint32_t other = (e & 1) ? v.link_a : v.link_b;
      if (other != kNoLink && other != link && done[other]) continue;
      out[i] = s;
      if (other == kNoLink || done[other]) continue;
      remaining[other] = std::max(0.0, remaining[other] - v.weight * s);
      weight[other] -= v.weight;
      if (weight[other] > kWeightEpsilon) {
        share[other] = remaining[other] / weight[other];
      } else {
        close(other);  // every user fixed: nothing left to share
      }
    }
  }
}

}  // namespace dlcnet::model
