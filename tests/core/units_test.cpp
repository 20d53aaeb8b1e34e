#include "core/units.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace dlcnet {
namespace {

TEST(Units, ParsesPlainAndSuffixedSizes) {
  EXPECT_EQ(parse_size("64", "-s"), 64u);
  EXPECT_EQ(parse_size("4K", "-s"), 4096u);
  EXPECT_EQ(parse_size("4k", "-s"), 4096u);
  EXPECT_EQ(parse_size("1M", "-s"), 1u << 20);
  EXPECT_EQ(parse_size("1MiB", "-s"), 1u << 20);
  EXPECT_EQ(parse_size("2G", "-s"), 2ull << 30);
  EXPECT_EQ(parse_size("0", "-s"), 0u);  // the caller decides whether 0 is allowed
}

TEST(Units, RejectsGarbageWithTheOptionName) {
  for (const char* bad : {"", "K", "-1", "4X", "1.5M", "99999999999999999999", "17179869184G"}) {
    try {
      parse_size(bad, "-s");
      FAIL() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("-s: '", 0), 0u) << e.what();
    }
  }
}

TEST(Units, FormatsBinaryMultiples) {
  EXPECT_EQ(format_size(65536), "64K");
  EXPECT_EQ(format_size(100), "100");
  EXPECT_EQ(format_size(1u << 20), "1M");
  EXPECT_EQ(format_size(1536), "1536");
}

}  // namespace
}  // namespace dlcnet
