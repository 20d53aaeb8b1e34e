#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "core/rank_list.hpp"

namespace dlcnet {
namespace {

TEST(RankList, NamesEveryRankOfAShortList) {
  EXPECT_EQ(rank_list(std::vector<int>{}), "");
  EXPECT_EQ(rank_list(std::vector<int>{3}), "3");
  EXPECT_EQ(rank_list(std::vector<int>{1, 4, 9}), "1, 4, 9");
}

TEST(RankList, CutsALongListAndCountsIt) {
  std::vector<int> ranks(255);
  std::iota(ranks.begin(), ranks.end(), 1);
  EXPECT_EQ(rank_list(ranks, 3), "1, 2, 3, ... (255 in all)");
  EXPECT_EQ(rank_list(std::vector<int>{5, 6}, 2), "5, 6");
}

}  // namespace
}  // namespace dlcnet
