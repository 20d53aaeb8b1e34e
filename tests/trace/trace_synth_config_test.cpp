// A synthetic job's configuration sized by records and described as synth.json; the job
// directory's preparation (nothing but an older job's files removed).
#include "trace/trace_synth_config.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "core/error.hpp"
#include "trace/trace_output_dir.hpp"

namespace dlcnet::trace {
namespace {

SynthConfig lenet_config() {
  SynthConfig c;
  c.workers = 3;
  c.servers = 2;
  c.model = preset_model("lenet5");
  return c;
}

TEST(SynthConfig, IterationsForRecordsRoundToTheNearest) {
  SynthConfig c = lenet_config();
  c.iterations = 1;
  const uint64_t base = synth_record_count(c);
  c.iterations = 2;
  const uint64_t per = synth_record_count(c) - base;
  ASSERT_GT(per, 0u);
  EXPECT_EQ(iterations_for_records(c, 1), 1u);  // fewer than one iteration's: one
  EXPECT_EQ(iterations_for_records(c, base), 1u);
  EXPECT_EQ(iterations_for_records(c, base + 9 * per), 10u);
  EXPECT_EQ(iterations_for_records(c, base + 9 * per + per / 2 - 1), 10u);
  EXPECT_EQ(iterations_for_records(c, base + 9 * per + per / 2 + 1), 11u);
  c.iterations = 10;
  EXPECT_EQ(synth_record_count(c), base + 9 * per);  // affine indeed
}

TEST(SynthConfig, DescribedAsJson) {
  SynthConfig c = lenet_config();
  c.seed = 7;
  const nlohmann::json j = synth_config_json(c, 1234);
  EXPECT_EQ(j["workers"], 3);
  EXPECT_EQ(j["servers"], 2);
  EXPECT_EQ(j["iterations"], c.iterations);
  EXPECT_EQ(j["model"], "lenet5");
  EXPECT_EQ(j["meta_bytes"], c.model.meta_bytes);
  ASSERT_EQ(j["params"].size(), c.model.params.size());
  EXPECT_EQ(j["params"][0]["name"], c.model.params[0].name);
  EXPECT_EQ(j["params"][0]["bytes"], c.model.params[0].bytes);
  EXPECT_DOUBLE_EQ(j["compute_s"].get<double>(), c.compute_s);
  EXPECT_DOUBLE_EQ(j["bandwidth_Bps"].get<double>(), c.bandwidth_Bps);
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["records"], 1234);
  EXPECT_EQ(j.size(), 18u);
}

TEST(SynthOutputDir, RemovesOnlyAnOlderJobsFiles) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("dlcnet_output_dir_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  prepare_output_dir(dir.string(), false);  // not there yet: fine
  fs::create_directories(dir / "worker0");
  fs::create_directories(dir / "server12");
  fs::create_directories(dir / "scheduler");
  fs::create_directories(dir / "notes");
  std::ofstream(dir / "synth.json") << "{}";
  std::ofstream(dir / "keep.txt") << "mine";
  std::ofstream(dir / "job.0.et") << "a Chakra file";
  std::ofstream(dir / "job.12.et") << "a Chakra file";
  std::ofstream(dir / "notes.et") << "not a rank's file";
  EXPECT_THROW(prepare_output_dir(dir.string(), false), Error);
  EXPECT_TRUE(fs::exists(dir / "worker0"));
  prepare_output_dir(dir.string(), true);
  EXPECT_FALSE(fs::exists(dir / "worker0"));
  EXPECT_FALSE(fs::exists(dir / "server12"));
  EXPECT_FALSE(fs::exists(dir / "scheduler"));
  EXPECT_FALSE(fs::exists(dir / "synth.json"));
  EXPECT_TRUE(fs::exists(dir / "notes"));
  EXPECT_TRUE(fs::exists(dir / "keep.txt"));
  EXPECT_FALSE(fs::exists(dir / "job.0.et"));
  EXPECT_FALSE(fs::exists(dir / "job.12.et"));
  EXPECT_TRUE(fs::exists(dir / "notes.et"));
  std::ofstream(dir / "file") << "x";
  EXPECT_THROW(prepare_output_dir((dir / "file").string(), true), Error);  // not a directory
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dlcnet::trace
