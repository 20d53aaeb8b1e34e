#include "core/tcp_stack.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/run_context.hpp"
#include "core/star_description.hpp"

namespace dlcnet {
namespace {

std::string sysctl(const char* name) {
  std::ifstream f(std::string("/proc/sys/net/ipv4/") + name);
  std::string v;
  std::getline(f, v);
  return v;
}

TEST(TcpStack, WhatTheKernelShowsHere) {
  const nlohmann::json s = read_tcp_stack();
  for (const char* k : {"netns", "congestion_control", "tcp_rmem", "tcp_wmem",
                        "tcp_slow_start_after_idle", "interfaces", "routes"}) {
    EXPECT_TRUE(s.contains(k)) << k;
  }
  EXPECT_EQ(s["congestion_control"], sysctl("tcp_congestion_control"));
  ASSERT_TRUE(s["tcp_rmem"].is_array());
  EXPECT_EQ(s["tcp_rmem"].size(), 3u);
  EXPECT_EQ(s["tcp_slow_start_after_idle"], std::stoi(sysctl("tcp_slow_start_after_idle")));
  for (const auto& i : s["interfaces"]) EXPECT_NE(i["name"], "lo");
  EXPECT_TRUE(s["routes"].is_array() || s["routes"].is_null());
  // Every tool's context carries it.
  EXPECT_EQ(make_run_context("t", 0, nullptr)["tcp_stack"]["congestion_control"],
            s["congestion_control"]);
}

TEST(StarDescription, PrefixOfTheNamesUpMakes) {
  EXPECT_EQ(star_prefix_of("cmp12-h0"), "cmp12");
  EXPECT_EQ(star_prefix_of("cmp12-h17"), "cmp12");
  EXPECT_EQ(star_prefix_of("a-b-sw"), "a-b");
  EXPECT_EQ(star_prefix_of("cmp12-h01"), "");
  EXPECT_EQ(star_prefix_of("cmp12-other"), "");
  EXPECT_EQ(star_prefix_of("h0"), "");
  EXPECT_EQ(star_prefix_of(""), "");
}

TEST(StarDescription, ReadByPrefixOrAnErrorInside) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("star_desc_test." + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "good.json") << R"({"congestion_control": "cubic"})";
  std::ofstream(dir / "bad.json") << "{ cut";
  const nlohmann::json good = read_star_description("good-h3", dir.string());
  EXPECT_EQ(good["congestion_control"], "cubic");
  EXPECT_EQ(good["file"], (dir / "good.json").string());
  EXPECT_TRUE(read_star_description("bad-sw", dir.string()).contains("error"));
  EXPECT_TRUE(read_star_description("none-h0", dir.string()).is_null());
  EXPECT_TRUE(read_star_description("good-x", dir.string()).is_null());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dlcnet
