// Inputs (core/input_file.hpp, core/json_file.hpp, core/distinct_files.hpp): opened once and
// read as a stream, directories refused by name, every JSON error named by file, line, column
// and key, outputs that would replace each other or an input refused.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "core/distinct_files.hpp"
#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/json_file.hpp"

namespace dlcnet {
namespace {

namespace fs = std::filesystem;

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

class InputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/dlcnet-input-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string dir_;
};

TEST_F(InputFileTest, JsonErrorsNameLineColumnAndKey) {
  EXPECT_EQ(error_of([&] { read_json_file(write("a.json", "{\"a\": 1,\n \"b\": 1e400}"), "x"); }),
            dir_ + "/a.json:2:11: b: number overflow parsing '1e400'");
  EXPECT_EQ(
      error_of([&] { read_json_file(write("b.json", "{\"q\": {\"t\": [1, 2, nul]}}"), "x"); }),
      dir_ +
          "/b.json:1:23: q.t[2]: syntax error while parsing value - invalid literal; last "
          "read: '2, nul]'");
  EXPECT_EQ(error_of([&] { read_json_file(write("c.json", " \n"), "x"); }),
            dir_ + "/c.json: empty: no JSON document in it");
  EXPECT_EQ(read_json_file(write("d.json", "[1, {\"k\": [true]}]"), "x")[1]["k"][0], true);
  const nlohmann::json doc = nlohmann::json::parse("{\"k\": \"text\"}");
  EXPECT_NE(error_of([&] {
              interpret_json("e.json", [&] { return doc.at("k").get<int>(); });
            }).find("e.json: [json.exception.type_error"),
            std::string::npos);
}

TEST_F(InputFileTest, DirectoriesAndMissingFilesAreNamed) {
  EXPECT_EQ(error_of([&] { InputFile in(dir_, "the calibration"); }),
            dir_ + ": is a directory, not the calibration");
  EXPECT_EQ(error_of([&] { read_json_file(dir_, "the calibration"); }),
            dir_ + ": is a directory, not the calibration");
  EXPECT_EQ(error_of([&] { InputFile in(dir_ + "/none", "the flow file"); }),
            dir_ + "/none: cannot open the flow file: No such file or directory");
}

// The first line is read ahead without being consumed, from a pipe as from a file.
TEST_F(InputFileTest, PeekThenReadAPipeOnce) {
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo) << "\n  \n  time_s,bytes\n0,1\n"; });
  InputFile in(fifo, "a queue series");
  EXPECT_EQ(in.peek_first_line(), "time_s,bytes");
  EXPECT_EQ(in.read_all(), "\n  \n  time_s,bytes\n0,1\n");
  writer.join();
  InputFile empty(write("empty", ""), "x");
  EXPECT_EQ(empty.peek_first_line(), "");
}

TEST_F(InputFileTest, OutputsNamingOneFileOrAnInputAreRefused) {
  const std::string in = write("flow.txt", "1\n");
  const std::string out = dir_ + "/fct.txt";
  EXPECT_EQ(error_of([&] {
              check_distinct_files({{"--out", out, true}, {"--json", out, true}});
            }),
            "--out " + out + " and --json " + out +
                " name one file: one output would replace the other; give each its own");
  EXPECT_EQ(error_of([&] {
              check_distinct_files({{"FLOW_TXT", in}, {"--out", dir_ + "/./flow.txt", true}});
            }),
            "--out " + dir_ + "/./flow.txt is the input FLOW_TXT " + in +
                ": writing it would replace what is read; write the output elsewhere");
  // Two inputs, a device twice, distinct files: fine.
  EXPECT_NO_THROW(check_distinct_files({{"A", in}, {"B", in}}));
  EXPECT_NO_THROW(
      check_distinct_files({{"--out", "/dev/null", true}, {"--json", "/dev/null", true}}));
  EXPECT_NO_THROW(check_distinct_files({{"FLOW_TXT", in}, {"--out", out, true}, {"--json", ""}}));
}

}  // namespace
}  // namespace dlcnet
