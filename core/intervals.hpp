// Time covered by sets of intervals [begin, end): their union, merged into disjoint intervals,
// and the length two unions share. Used for the time a rank computes, communicates, and does
// both (dlc-trace stats from a trace's nodes, dlc-replay from what the replay measured).
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace dlcnet {

template <class T>
using Interval = std::pair<T, T>;  // [begin, end)

// The intervals merged into disjoint ones, in order; empty ones dropped.
template <class T>
std::vector<Interval<T>> merged(std::vector<Interval<T>> v) {
  std::sort(v.begin(), v.end());
  std::vector<Interval<T>> out;
  for (const Interval<T>& x : v) {
    if (!(x.first < x.second)) continue;
    if (!out.empty() && x.first <= out.back().second) {
      out.back().second = std::max(out.back().second, x.second);
    } else {
      out.push_back(x);
    }
  }
  return out;
}

// The length of disjoint, ordered intervals (as merged() gives them).
template <class T>
T covered(const std::vector<Interval<T>>& v) {
  T total{};
  for (const Interval<T>& x : v) total += x.second - x.first;
  return total;
}

// The length two sets of disjoint, ordered intervals share.
template <class T>
T intersection(const std::vector<Interval<T>>& a, const std::vector<Interval<T>>& b) {
  T total{};
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const T lo = std::max(a[i].first, b[j].first);
    const T hi = std::min(a[i].second, b[j].second);
    if (lo < hi) total += hi - lo;
    (a[i].second < b[j].second ? i : j) += 1;
  }
  return total;
}

}  // namespace dlcnet
