#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/progress_line.hpp"

namespace dlcnet {
namespace {

constexpr int64_t kS = 1'000'000'000;

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
  return s;
}

TEST(ProgressLine, SaysDoneOfTotalRateAndTimeLeft) {
  ProgressLine p(nullptr, "dlc-replay rank 0", 1000, 0, 0, false);
  EXPECT_EQ(p.text(250, 2 * kS),
            "dlc-replay rank 0: 250 of 1 000 messages (25.0 %), 125 /s, 6 s left");
  ProgressLine timed(nullptr, "dlc-bench 4096 B", 0, 0, 10 * kS, false);
  EXPECT_EQ(timed.text(1'234'567, 2 * kS),
            "dlc-bench 4096 B: 1 234 567 messages, 617 k/s, 8 s left");
}

TEST(ProgressLine, WaitsASecondThenRewritesTheLineTwiceASecondAndErasesIt) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    ProgressLine p(f, "x", 100, 0, 0, true);
    p.tick(10, kS / 2);  // too early
    EXPECT_EQ(contents(f), "");
    p.tick(20, kS);
    p.tick(21, kS + kS / 4);  // within half a second of the last line
    const std::string one = contents(f);
    EXPECT_EQ(one, "\rx: 20 of 100 messages (20.0 %), 20 /s, 4 s left");
    p.tick(99, 2 * kS);
    const std::string two = contents(f);
    EXPECT_EQ(two.substr(one.size()), "\rx: 99 of 100 messages (99.0 %), 49.5 /s, 1 s left");
  }  // finish(): blanks over the line, back to its start
  const std::string all = contents(f);
  const std::string tail = all.substr(all.rfind("left") + 4);
  EXPECT_EQ(tail,
            "\r" +
                std::string(std::string("x: 99 of 100 messages (99.0 %), 49.5 /s, 1 s left").size(),
                            ' ') +
                "\r");
  std::fclose(f);
}

TEST(ProgressLine, DisabledWritesNothing) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    ProgressLine p(f, "x", 100, 0, 0, false);
    p.tick(50, 5 * kS);
  }
  EXPECT_EQ(contents(f), "");
  std::fclose(f);
}

TEST(ProgressLine, WantedOnATerminalOrWhenAskedFor) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  unsetenv("DLCNET_PROGRESS");
  EXPECT_FALSE(ProgressLine::wanted(f));  // a file
  setenv("DLCNET_PROGRESS", "1", 1);
  EXPECT_TRUE(ProgressLine::wanted(f));
  setenv("DLCNET_PROGRESS", "0", 1);
  EXPECT_FALSE(ProgressLine::wanted(f));
  unsetenv("DLCNET_PROGRESS");
  std::fclose(f);
}

}  // namespace
}  // namespace dlcnet
