// Weighted max-min fair sharing by progressive filling (water-filling), SimGrid's way: every
// variable (a class of `weight` identical flows) crosses one or two links; all unfixed
// variables rise together; the link whose remaining capacity over its unfixed weight is the
// smallest saturates first and fixes its variables at that per-flow rate, which is subtracted
// from their other link; repeat until every variable is fixed.
//
// Cost per solve: O((V + L) log L) for V variables on L links (a heap of link shares, updated
// lazily), every buffer reused from the previous solve.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace dlcnet::model {

inline constexpr uint32_t kNoLink = std::numeric_limits<uint32_t>::max();

struct MaxMinVar {
  double weight = 1;  // how many flows share this variable's rate
  uint32_t link_a = kNoLink, link_b = kNoLink;  // at least one link
};

class MaxMin {
 public:
  // rate[v] = the per-flow rate of variable v. A variable on no link gets +infinity.
  void solve(std::span<const double> capacity, std::span<const MaxMinVar> vars,
             std::span<double> rate);

 private:
  struct Share {
    double share;
    uint32_t link, version;
    bool operator>(const Share& o) const noexcept { return share > o.share; }
  };
  std::vector<double> remaining_, weight_;
  std::vector<uint32_t> version_, first_, users_;
  std::vector<uint8_t> fixed_, done_;
  std::vector<Share> heap_;
};

}  // namespace dlcnet::model
