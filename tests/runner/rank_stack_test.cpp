#include "runner/rank_stack.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace dlcnet::runner {
namespace {

const nlohmann::json kReno = {{"congestion_control", "reno"}, {"netns", {{"name", "s-h0"}}}};
const nlohmann::json kCubic = {{"congestion_control", "cubic"}, {"netns", {{"name", "s-h1"}}}};

TEST(RankStack, FramedAndTakenOffAgain) {
  std::vector<Bytes> gathered = {with_stack(kReno, Bytes{1, 2, 3}), with_stack(kCubic, Bytes{})};
  const std::vector<nlohmann::json> stacks = take_stacks(gathered);
  ASSERT_EQ(stacks.size(), 2u);
  EXPECT_EQ(stacks[0], kReno);
  EXPECT_EQ(stacks[1], kCubic);
  EXPECT_EQ(gathered[0], (Bytes{1, 2, 3}));  // the pattern's blob as it sent it
  EXPECT_TRUE(gathered[1].empty());
}

TEST(RankStack, CutOrForeignFramesNameTheRank) {
  Bytes whole = with_stack(kReno, Bytes{7});
  std::vector<Bytes> cut = {with_stack(kReno, {}), Bytes(whole.begin(), whole.begin() + 10)};
  try {
    take_stacks(cut);
    FAIL() << "a cut frame was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 1's TCP stack: cut short"), std::string::npos)
        << e.what();
  }
  std::vector<Bytes> short_one = {Bytes{1, 0}};
  EXPECT_THROW(take_stacks(short_one), Error);
  std::vector<Bytes> not_json = {Bytes{2, 0, 0, 0, '{', 'x'}};
  EXPECT_THROW(take_stacks(not_json), Error);
}

TEST(RankStack, RanksWithOneStackAreOneEntry) {
  const nlohmann::json s = stacks_json({kReno, kCubic, kReno, kReno});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0]["ranks"], nlohmann::json::array({0, 2, 3}));
  EXPECT_EQ(s[0]["congestion_control"], "reno");
  EXPECT_EQ(s[1]["ranks"], nlohmann::json::array({1}));
  EXPECT_EQ(s[1]["netns"]["name"], "s-h1");
}

}  // namespace
}  // namespace dlcnet::runner
