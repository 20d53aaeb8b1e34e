#include "trace/chakra/chakra_id_table.hpp"

#include <algorithm>

namespace dlcnet::trace::chakra {

void IdTable::build(const Rank& r, std::vector<std::pair<uint32_t, uint32_t>>& duplicates) {
  duplicates.clear();
  nodes_ = r.nodes.data();
  size_ = r.nodes.size();
  in_order_ = true;
  for (size_t i = 1; i < size_ && in_order_; ++i) in_order_ = nodes_[i - 1].id < nodes_[i].id;
  if (in_order_) {
    sorted_.clear();
    table_of_.clear();
    return;
  }
  sorted_.resize(size_);
  for (uint32_t i = 0; i < size_; ++i) sorted_[i] = {nodes_[i].id, i};
  std::sort(sorted_.begin(), sorted_.end());
  table_of_.resize(size_);
  uint32_t run_first = 0;  // the first node of the current run of one id
  for (uint32_t p = 0; p < size_; ++p) {
    table_of_[sorted_[p].second] = p;
    if (p == 0 || sorted_[p].first != sorted_[p - 1].first) {
      run_first = sorted_[p].second;
    } else {
      duplicates.emplace_back(sorted_[p].second, run_first);
    }
  }
  std::sort(duplicates.begin(), duplicates.end());
}

size_t IdTable::lower_bound(uint64_t id, size_t from) const noexcept {
  if (size_ == 0) return 0;
  from = std::min(from, size_ - 1);
  size_t lo = 0;  // the answer lies in [lo, hi]
  size_t hi = size_;
  if (key(from) < id) {
    lo = from + 1;
    for (size_t step = 1;; step *= 2) {
      if (step >= size_ - from) break;
      if (key(from + step) >= id) {
        hi = from + step;
        break;
      }
      lo = from + step + 1;
    }
  } else {
    hi = from;
    for (size_t step = 1; step <= from; step *= 2) {
      if (key(from - step) < id) {
        lo = from - step + 1;
        break;
      }
      hi = from - step;
    }
  }
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (key(mid) < id) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

uint32_t IdTable::find(uint64_t id, uint32_t hint) const noexcept {
  const size_t from = in_order_ || hint >= table_of_.size() ? hint : table_of_[hint];
  const size_t at = lower_bound(id, from);
  if (at == size_ || key(at) != id) return kNone;
  return in_order_ ? static_cast<uint32_t>(at) : sorted_[at].second;
}

}  // namespace dlcnet::trace::chakra
