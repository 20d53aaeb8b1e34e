// -W's counter reading and differences, on a fake sysfs tree (no device needed).
#include "verbs/port_counters.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"

namespace dlcnet::verbs {
namespace {

namespace fs = std::filesystem;

class PortCounters : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::temp_directory_path() /
        ("dlcnet-counters-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void put(const std::string& group, const std::string& name, const std::string& text) {
    const fs::path dir = root_ / "rxe0" / "ports" / "1" / group;
    fs::create_directories(dir);
    std::ofstream(dir / name) << text;
  }
  CounterSnapshot read() { return read_port_counters("rxe0", 1, root_.string()); }
  fs::path root_;
};

TEST_F(PortCounters, DifferencesOfBothFolders) {
  put("counters", "port_xmit_packets", "100\n");
  put("hw_counters", "sent_pkts", "7\n");
  put("hw_counters", "retry_exceeded_err", "0\n");
  const CounterSnapshot before = read();
  put("counters", "port_xmit_packets", "350\n");
  put("hw_counters", "sent_pkts", "19\n");
  const nlohmann::json d = counter_deltas_json(before, read());
  EXPECT_EQ(d["device"], "rxe0");
  EXPECT_EQ(d["port"], 1);
  EXPECT_EQ(d["counters"]["port_xmit_packets"], 250);
  EXPECT_EQ(d["hw_counters"]["sent_pkts"], 12);
  EXPECT_EQ(d["hw_counters"]["retry_exceeded_err"], 0);
  const std::string text = counter_deltas_text(d);
  EXPECT_NE(text.find("hw_counters/sent_pkts 12"), std::string::npos) << text;
  EXPECT_EQ(text.find("retry_exceeded_err"), std::string::npos) << "zero ones omitted: " << text;
}

TEST_F(PortCounters, ACounterThatWentDownIsNullNotAHugeNumber) {
  put("hw_counters", "sent_pkts", "50\n");
  const CounterSnapshot before = read();
  put("hw_counters", "sent_pkts", "3\n");
  const nlohmann::json d = counter_deltas_json(before, read());
  EXPECT_TRUE(d["hw_counters"]["sent_pkts"].is_null());
  EXPECT_NE(counter_deltas_text(d).find("sent_pkts went down"), std::string::npos);
}

TEST_F(PortCounters, FilesWithoutANumberAreNamedNotGuessed) {
  put("hw_counters", "sent_pkts", "5\n");
  put("hw_counters", "lifespan", "n/a\n");
  const CounterSnapshot s = read();
  EXPECT_EQ(s.hw_counters.count("lifespan"), 0u);
  ASSERT_EQ(s.unreadable.size(), 1u);
  EXPECT_EQ(s.unreadable[0], "hw_counters/lifespan");
}

TEST_F(PortCounters, APortWithoutCountersIsAnErrorNamingTheFlagAndPath) {
  fs::create_directories(root_ / "rxe0" / "ports" / "1");
  try {
    read();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("-W: rxe0 port 1 has no counters"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace dlcnet::verbs
