#include "core/run_context.hpp"

#include <gtest/gtest.h>

#include "core/clock.hpp"

namespace dlcnet {
namespace {

TEST(RunContext, KeysOfEveryTool) {
  const char* argv[] = {"tool", "--flag"};
  const nlohmann::json c = make_run_context("some-tool", 2, argv);
  EXPECT_EQ(c["schema_version"], kReportSchemaVersion);
  EXPECT_EQ(c["tool"], "some-tool");
  EXPECT_EQ(c["argv"], nlohmann::json::array({"tool", "--flag"}));
  for (const char* k : {"tool_version", "host", "date", "libibverbs_version", "kernel", "cpus"}) {
    EXPECT_TRUE(c.contains(k)) << k;
  }
  // Transport library versions are the tools' to add (launch/), not core's.
  EXPECT_FALSE(c.contains("ucx_version"));
}

TEST(RunContext, ClockSaysWhatTheTimesAre) {
  const nlohmann::json c = make_run_context("t", 0, nullptr);
  ASSERT_TRUE(c["clock"].is_object());
  EXPECT_EQ(c["clock"].size(), 2u);
  EXPECT_EQ(c["clock"]["source"], clock_description());
  const std::string times = c["clock"]["times"];
  EXPECT_NE(times.find("now_ns()"), std::string::npos);
  EXPECT_NE(times.find("CLOCK_MONOTONIC"), std::string::npos);
}

}  // namespace
}  // namespace dlcnet
