// Helpers shared by the trace tests.
#pragma once

#include <gmock/gmock.h>

#include <string>
#include <vector>

#include "trace/trace_loader.hpp"
#include "trace/trace_model.hpp"

namespace dlcnet::trace::test {

// tests/data/trace/<rel>.
std::string data(const std::string& rel);

// A fresh directory under the system temporary directory, removed with everything in it when
// the object goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

LoadResult load(const std::vector<std::string>& inputs);
LoadResult load(const std::string& input);

// The record of `node` with this OP_ID; fails the test (and returns kNone) when absent.
uint32_t find(const Node& node, int32_t key, int32_t opnum, uint16_t peer);

// A command run through the shell, its stdout and stderr together, and its exit code (-1 when
// it did not exit normally).
struct CliRun {
  int exit = -1;
  std::string output;
};
CliRun run_shell(const std::string& command);

// Every diagnostic of `problem`, formatted ("file:line: severity: text").
std::vector<std::string> messages(const Diagnostics& d, Problem problem);

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);

}  // namespace dlcnet::trace::test
