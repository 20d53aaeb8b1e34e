#include "trace/trace_output_dir.hpp"

#include <filesystem>
#include <regex>

#include "core/error.hpp"

namespace dlcnet::trace {

void prepare_output_dir(const std::string& dir, bool overwrite) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  if (!fs::is_directory(dir, ec)) throw Error(dir + ": exists and is not a directory");
  if (fs::is_empty(dir, ec)) return;
  if (!overwrite)
    throw Error(dir + ": not empty (--overwrite replaces a job written there before)");
  static const std::regex node_dir("(worker|server)[0-9]+|scheduler");
  static const std::regex et_file(".+\\.[0-9]+\\.et");
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if ((e.is_directory() && std::regex_match(name, node_dir)) || name == "synth.json" ||
        (e.is_regular_file() && std::regex_match(name, et_file))) {
      fs::remove_all(e.path(), ec);
      if (ec) throw Error("cannot remove " + e.path().string() + ": " + ec.message());
    }
  }
}

}  // namespace dlcnet::trace
