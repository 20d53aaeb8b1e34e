// The model's speed benchmark on a small mix: one progress line and one timing per run, and the
// report's rates from those timings.
#include "model/model_speed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

namespace dlcnet::model {
namespace {

TEST(ModelSpeed, TimesEveryRunAndReportsTheBest) {
  MixSpec mix;
  mix.messages = 200;
  mix.hosts = 5;
  mix.keys = 4;
  std::ostringstream progress;
  const ModelSpeed s = time_model(mix, 2, progress);
  EXPECT_GT(s.messages, 0u);
  ASSERT_EQ(s.runs.size(), 2u);
  const std::string lines = progress.str();
  EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 2);
  EXPECT_EQ(lines.rfind("model-speed: " + std::to_string(s.messages) + " messages in ", 0), 0u);
  EXPECT_GT(s.prediction.events, 0u);
  const nlohmann::json doc = model_speed_report({{"tool", "test"}}, mix, s);
  EXPECT_EQ(doc["context"]["tool"], "test");
  EXPECT_EQ(doc["workload"]["messages"], s.messages);
  EXPECT_EQ(doc["workload"]["hosts"], 5);
  EXPECT_EQ(doc["events"], s.prediction.events);
  ASSERT_EQ(doc["runs"].size(), 2u);
  double best = 0;
  for (size_t i = 0; i < 2; ++i) {
    const double rate = static_cast<double>(s.messages) / s.runs[i].cpu_s;
    EXPECT_DOUBLE_EQ(doc["runs"][i]["messages_per_cpu_s"].get<double>(), rate);
    EXPECT_DOUBLE_EQ(doc["runs"][i]["wall_s"].get<double>(), s.runs[i].wall_s);
    best = std::max(best, rate);
  }
  EXPECT_DOUBLE_EQ(doc["best_messages_per_cpu_s"].get<double>(), best);
}

}  // namespace
}  // namespace dlcnet::model
