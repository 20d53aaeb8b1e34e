#include "tests/trace/trace_test_util.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dlcnet::trace::test {

std::string data(const std::string& rel) {
  return std::string(DLCNET_TRACE_DATA) + "/" + rel;
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "dlc-trace-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

LoadResult load(const std::vector<std::string>& inputs) {
  return load_job(inputs);
}
LoadResult load(const std::string& input) {
  return load_job(std::vector<std::string>{input});
}

uint32_t find(const Node& node, int32_t key, int32_t opnum, uint16_t peer) {
  for (uint32_t i = 0; i < node.records.size(); ++i) {
    const Record& r = node.records[i];
    if (r.is_data() && r.key == key && r.opnum == opnum && r.peer == peer) return i;
  }
  ADD_FAILURE() << "no record " << key << "-" << opnum << " with peer " << peer << " at "
                << node.name();
  return kNone;
}

std::vector<std::string> messages(const Diagnostics& d, Problem problem) {
  std::vector<std::string> out;
  for (const Diagnostic& x : d.kept()) {
    if (x.problem == problem) out.push_back(Diagnostics::format(x));
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
}

CliRun run_shell(const std::string& command) {
  CliRun r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(p);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace dlcnet::trace::test
