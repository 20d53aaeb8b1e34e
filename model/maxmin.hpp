// Weighted max-min fair sharing by progressive filling (water-filling), SimGrid's way: every
// variable (a class of `weight` identical flows) crosses one or two links; all unfixed
// variables rise together; the link whose remaining capacity over its unfixed weight is the
// smallest saturates first and fixes its variables at that per-flow rate, which is subtracted
// from their other link; repeat until every variable is fixed.
//
// Cost per solve: O(V + R x L) for V variables on L links fixed in R rounds (R <= L), every
// buffer reused from the previous solve. The model solves at every event (about one per
// message), so this is its hot loop: plain pointers, each link's users as a list built in one
// pass, and a link whose last user is fixed leaves the open list at once, so that a round's
// scan is a branch-free search for the minimum over the links still shared (bench/README.md).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace dlcnet::model {

inline constexpr uint32_t kNoLink = std::numeric_limits<uint32_t>::max();

struct MaxMinVar {
  double weight = 1;                            // how many flows share this variable's rate
  uint32_t link_a = kNoLink, link_b = kNoLink;  // at least one link
};

class MaxMin {
 public:
  // rate[v] = the per-flow rate of variable v. A variable on no link gets +infinity.
  void solve(std::span<const double> capacity, std::span<const MaxMinVar> vars,
             std::span<double> rate);

 private:
  std::vector<double> remaining_, weight_, share_;
  std::vector<uint32_t> head_, next_, open_, at_;
  std::vector<uint8_t> done_;
};

}  // namespace dlcnet::model
