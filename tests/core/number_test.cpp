// The checked numeric parser every tool's options go through (core/number.hpp).
#include "core/number.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "core/error.hpp"

namespace dlcnet {
namespace {

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Number, AcceptsWholeNumbersInRange) {
  EXPECT_EQ(parse_integer("42", "-n", 1, 100), 42);
  EXPECT_EQ(parse_integer("+7", "-n", 1, 100), 7);
  EXPECT_EQ(parse_integer("-1", "-x", -1, 10), -1);
  EXPECT_EQ(parse_unsigned("18446744073709551615", "--seed", 0, UINT64_MAX), UINT64_MAX);
}

TEST(Number, RefusesWhatStrtoullWouldWrapOrTruncate) {
  // `-n -1` became 2^64 - 1 through CLI11's strtoull.
  EXPECT_EQ(error_of([] { parse_unsigned("-1", "-n", 1, 1000); }),
            "-n: '-1' is negative (expected a whole number from 1 to 1000)");
  for (const char* bad : {"", "1.5", "0x10", "1e3", "12abc", " 1", "+-1", "++1"}) {
    EXPECT_NE(error_of([&] { parse_unsigned(bad, "-n", 0, 1000); }).find("is not a whole number"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(error_of([] { parse_integer("99999999999999999999", "-n", 0, 10); }).find("range"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_integer("0", "-t", 1, 10); }).find("out of range"),
            std::string::npos);
}

TEST(Number, RealsMustBeFiniteAndInRange) {
  EXPECT_DOUBLE_EQ(parse_real("0.5", "--time-scale", 0, 10), 0.5);
  EXPECT_DOUBLE_EQ(parse_real("1e-3", "-D", 1e-3, 10), 1e-3);
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "infinity"}) {
    EXPECT_NE(error_of([&] { parse_real(bad, "-D", 0, 10); }).find("is not finite"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(error_of([] { parse_real("1e400", "-D", 0, 10); }).find("out of range"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_real("0", "-D", 1e-3, 10); }).find("-D: '0' is out of range"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_real("2s", "-D", 0, 10); }).find("is not a number"),
            std::string::npos);
}

TEST(Number, ProblemTextsAreForValidatorsThatPrefixTheName) {
  EXPECT_EQ(real_problem("1", 0, 2), "");
  EXPECT_EQ(real_problem("nan", 0, 2),
            "'nan' is not finite (expected a finite number from 0 to 2)");
  EXPECT_EQ(unsigned_problem("-1", 0, 9), "'-1' is negative (expected a whole number from 0 to 9)");
  EXPECT_EQ(integer_problem("5", -1, 9), "");
}

}  // namespace
}  // namespace dlcnet
