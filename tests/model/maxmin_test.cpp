// The progressive-filling solver: small systems with the answer derived in a comment, and
// seeded random systems against a plain reference (fix one bottleneck per round, scanning
// every link and variable).
#include "model/maxmin.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

namespace dlcnet::model {
namespace {

// The textbook algorithm, O(L x V) per round: the link with the least remaining capacity per
// unfixed weight fixes its variables; repeat.
std::vector<double> reference(const std::vector<double>& capacity,
                              const std::vector<MaxMinVar>& vars) {
  std::vector<double> rate(vars.size(), -1), remaining = capacity;
  for (;;) {
    double best = std::numeric_limits<double>::infinity();
    uint32_t best_link = kNoLink;
    for (uint32_t l = 0; l < capacity.size(); ++l) {
      double w = 0;
      for (size_t i = 0; i < vars.size(); ++i)
        if (rate[i] < 0 && (vars[i].link_a == l || vars[i].link_b == l)) w += vars[i].weight;
      if (w > 0 && remaining[l] / w < best) {
        best = remaining[l] / w;
        best_link = l;
      }
    }
    if (best_link == kNoLink) return rate;
    for (size_t i = 0; i < vars.size(); ++i) {
      if (rate[i] >= 0 || (vars[i].link_a != best_link && vars[i].link_b != best_link)) continue;
      rate[i] = best;
      for (uint32_t l : {vars[i].link_a, vars[i].link_b})
        if (l != kNoLink) remaining[l] -= vars[i].weight * best;
    }
  }
}

std::vector<double> fast(const std::vector<double>& capacity, const std::vector<MaxMinVar>& vars) {
  MaxMin m;
  std::vector<double> rate(vars.size());
  m.solve(capacity, vars, rate);
  return rate;
}

TEST(ModelMaxMin, TwoLinksHandSolved) {
  // Links 0 (cap 3) and 1 (cap 10). a on 0, b on 0 and 1, c on 1 (weight 2).
  // Link 0: 3 / 2 = 1.5 per flow; link 1: 10 / 3. Link 0 first: a = b = 1.5; link 1 has 8.5
  // left for c's weight 2: 4.25 each.
  const std::vector<double> r = fast({3, 10}, {{1, 0, kNoLink}, {1, 0, 1}, {2, 1, kNoLink}});
  EXPECT_DOUBLE_EQ(r[0], 1.5);
  EXPECT_DOUBLE_EQ(r[1], 1.5);
  EXPECT_DOUBLE_EQ(r[2], 4.25);
}

TEST(ModelMaxMin, ReusedSolverStartsClean) {
  MaxMin m;
  std::vector<double> r(1);
  std::vector<double> cap{4, 4};
  std::vector<MaxMinVar> one{{1, 0, 1}};
  m.solve(cap, one, r);
  EXPECT_DOUBLE_EQ(r[0], 4);
  std::vector<MaxMinVar> two{{1, 0, kNoLink}, {3, 0, 1}};
  r.resize(2);
  m.solve(cap, two, r);
  EXPECT_DOUBLE_EQ(r[0], 1);
  EXPECT_DOUBLE_EQ(r[1], 1);
}

TEST(ModelMaxMin, MatchesTheReferenceOnRandomStars) {
  // Hosts on one switch: links 0..H-1 up, H..2H-1 down, random capacities and pairs.
  std::mt19937_64 rng(15);
  for (int round = 0; round < 200; ++round) {
    const uint32_t hosts = 2 + static_cast<uint32_t>(rng() % 12);
    std::vector<double> cap(2 * hosts);
    for (double& c : cap) c = 1 + static_cast<double>(rng() % 1000);
    std::vector<MaxMinVar> vars(1 + rng() % 40);
    for (MaxMinVar& v : vars) {
      v.weight = 1 + static_cast<double>(rng() % 5);
      v.link_a = static_cast<uint32_t>(rng() % hosts);
      v.link_b = rng() % 8 == 0 ? kNoLink : hosts + static_cast<uint32_t>(rng() % hosts);
    }
    const std::vector<double> want = reference(cap, vars), got = fast(cap, vars);
    for (size_t i = 0; i < vars.size(); ++i)
      ASSERT_NEAR(got[i], want[i], 1e-9 * want[i]) << "round " << round << " variable " << i;
  }
}

TEST(ModelMaxMin, MatchesTheReferenceWithTiesAndClosingLinks) {
  // Capacities from two values and unit weights: many links share the smallest share at once,
  // and many close in the middle of a round when their last user is fixed on its other link
  // (the solver drops them from its list there and then). Variables on no link get +infinity.
  std::mt19937_64 rng(16);
  for (int round = 0; round < 300; ++round) {
    const uint32_t hosts = 2 + static_cast<uint32_t>(rng() % 8);
    std::vector<double> cap(2 * hosts);
    for (double& c : cap) c = rng() % 2 ? 100 : 50;
    std::vector<MaxMinVar> vars(1 + rng() % 30);
    for (MaxMinVar& v : vars) {
      v.link_a = rng() % 16 == 0 ? kNoLink : static_cast<uint32_t>(rng() % hosts);
      v.link_b = rng() % 6 == 0 ? kNoLink : hosts + static_cast<uint32_t>(rng() % hosts);
    }
    const std::vector<double> want = reference(cap, vars), got = fast(cap, vars);
    for (size_t i = 0; i < vars.size(); ++i) {
      if (vars[i].link_a == kNoLink && vars[i].link_b == kNoLink) {
        EXPECT_EQ(got[i], std::numeric_limits<double>::infinity());
        continue;
      }
      ASSERT_NEAR(got[i], want[i], 1e-12 * want[i]) << "round " << round << " variable " << i;
    }
  }
}

}  // namespace
}  // namespace dlcnet::model
