// How --timeout is split between the waits and the settling after a failure
// (core/stop_budget.hpp).
#include "core/stop_budget.hpp"

#include <gtest/gtest.h>

namespace dlcnet {
namespace {

using std::chrono::milliseconds;

TEST(StopBudget, KeepsAQuarterForSettlingWithinItsBounds) {
  const StopBudget five = stop_budget(5);
  EXPECT_EQ(five.total, milliseconds(5000));
  EXPECT_EQ(five.reserve, milliseconds(1250));
  EXPECT_EQ(five.wait, milliseconds(3750));
  EXPECT_EQ(stop_budget(1).reserve, milliseconds(500));    // the floor
  EXPECT_EQ(stop_budget(30).reserve, milliseconds(4000));  // the ceiling
  EXPECT_EQ(stop_budget(30).wait, milliseconds(26000));
  EXPECT_EQ(stop_budget(milliseconds(600)).reserve, milliseconds(300));  // never over half
  EXPECT_EQ(stop_budget(milliseconds(0)).wait, milliseconds(0));
}

TEST(StopBudget, TheAgreementFitsInTheReserve) {
  for (int s : {1, 2, 5, 10, 30, 600, 7 * 86400}) {
    const StopBudget b = stop_budget(s);
    EXPECT_EQ(b.wait + b.reserve, b.total) << s;
    EXPECT_GT(b.wait, milliseconds(0)) << s;
    // The others' verdict wait covers rank 0's two report windows: a rank failing first does
    // not give up on rank 0 while rank 0 still gathers.
    EXPECT_GE(b.verdict_wait, 2 * b.report_window) << s;
    // Verdict, then closing: what is left of the reserve is for the outputs and the exit.
    EXPECT_LE(b.verdict_wait + b.close_limit, b.reserve * 8 / 10) << s;
    EXPECT_GT(b.report_window, milliseconds(0)) << s;
    EXPECT_GT(b.close_limit, milliseconds(0)) << s;
  }
}

TEST(StopBudget, StatesSecondsAsTheyWere) {
  EXPECT_EQ(seconds_text(milliseconds(3750)), "3.75 s");
  EXPECT_EQ(seconds_text(milliseconds(26000)), "26 s");
  EXPECT_EQ(seconds_text(milliseconds(500)), "0.5 s");
  EXPECT_EQ(seconds_text(milliseconds(1005)), "1.005 s");
}

}  // namespace
}  // namespace dlcnet
