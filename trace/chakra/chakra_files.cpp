#include "trace/chakra/chakra_files.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <system_error>

#include "trace/trace_native.hpp"

namespace dlcnet::trace::chakra {
namespace {

namespace fs = std::filesystem;

bool is_et(const fs::path& p) {
  return p.extension() == ".et";
}

// A native CSV file of any version in a directory (a version 1 file beside version 2 files is
// read, and refused, as such).
bool is_native_csv(const fs::path& p) {
  return p.extension() == ".csv" && native_file_version(p.string()) != 0;
}

// The files below the inputs that `keep` keeps (a file named on the command line whatever its
// kind), sorted.
template <typename Keep>
std::vector<fs::path> paths(std::span<const std::string> inputs, Diagnostics* diag, Keep keep) {
  std::vector<fs::path> out;
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (!fs::is_directory(input, ec)) {
      if (fs::exists(input, ec)) {
        out.emplace_back(input);
      } else if (diag != nullptr) {
        diag->add(Problem::kIo, input, 0, "no such file or directory");
      }
      continue;
    }
    for (auto it = fs::recursive_directory_iterator(input, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec) && keep(it->path())) out.push_back(it->path());
      ec.clear();
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<fs::path> et_paths(std::span<const std::string> inputs, Diagnostics* diag) {
  return paths(inputs, diag, is_et);
}

}  // namespace

bool is_native_job_input(std::span<const std::string> inputs) {
  const auto v2 = [](const fs::path& p) {
    return native_file_version(p.string()) == kNativeAnyRankVersion;
  };
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (!fs::is_directory(input, ec)) {
      if (v2(input)) return true;
      continue;
    }
    const std::string dir[] = {input};
    const auto v2_csv = [&](const fs::path& p) { return p.extension() == ".csv" && v2(p); };
    if (!paths(dir, nullptr, v2_csv).empty()) return true;
  }
  return false;
}

bool is_chakra_input(std::span<const std::string> inputs) {
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (is_et(input)) return true;
    if (!fs::is_directory(input, ec)) continue;
    const std::string dir[] = {input};
    if (!et_paths(dir, nullptr).empty()) return true;
  }
  return is_native_job_input(inputs);
}

std::vector<std::string> find_native_job_files(std::span<const std::string> inputs,
                                               Diagnostics& diag) {
  std::vector<std::string> files;
  for (const fs::path& p :
       paths(inputs, &diag, [](const fs::path& q) { return is_et(q) || is_native_csv(q); })) {
    if (is_et(p)) {
      diag.add(Problem::kInconsistentJob, p.string(), 0,
               "a Chakra ET file beside native version 2 files: a job is one format");
    } else {
      files.push_back(p.string());
    }
  }
  return files;
}

std::vector<EtFile> find_chakra_files(std::span<const std::string> inputs, Diagnostics& diag) {
  std::map<int32_t, std::string> by_rank;
  std::string job;  // folder and name of the first file: every file must share them
  for (const fs::path& p : et_paths(inputs, &diag)) {
    const std::string stem = p.stem().string();  // "<name>.<rank>"
    const size_t dot = stem.rfind('.');
    int32_t rank = -1;
    const char* first = stem.data() + (dot == std::string::npos ? 0 : dot + 1);
    const char* last = stem.data() + stem.size();
    const auto [end, ec] = std::from_chars(first, last, rank);
    if (dot == std::string::npos || first == last || ec != std::errc() || end != last || rank < 0) {
      diag.add(Problem::kInconsistentJob, p.string(), 0,
               "file name: not <name>.<rank>.et (the rank is the number before .et)");
      continue;
    }
    const std::string this_job = (p.parent_path() / stem.substr(0, dot)).string();
    if (job.empty()) job = this_job;
    if (this_job != job) {
      diag.add(Problem::kInconsistentJob, p.string(), 0,
               "file name: another job's file (this job's files are " + job + ".<rank>.et)");
      continue;
    }
    const auto [it, fresh] = by_rank.emplace(rank, p.string());
    if (!fresh) {
      diag.add(
          Problem::kInconsistentJob, p.string(), 0,
          "rank " + std::to_string(rank) + ": a second file (the first is " + it->second + ")");
    }
  }
  std::vector<EtFile> files;
  if (by_rank.empty()) {
    if (diag.errors() == 0) {
      diag.add(Problem::kIo, inputs.empty() ? std::string("(no input)") : inputs.front(), 0,
               "no Chakra ET files (<name>.<rank>.et)");
    }
    return files;
  }
  // Gaps reported as ranges: a name with a huge rank costs one line, not a loop to it.
  const int32_t top = by_rank.rbegin()->first;
  int32_t expected = 0;
  for (const auto& [rank, path] : by_rank) {
    if (rank != expected) {
      const std::string which =
          rank - 1 == expected
              ? "rank " + std::to_string(expected) + " is"
              : "ranks " + std::to_string(expected) + " to " + std::to_string(rank - 1) + " are";
      diag.add(Problem::kInconsistentJob, job + "." + std::to_string(expected) + ".et", 0,
               which + " missing: the job has files up to rank " + std::to_string(top));
    }
    files.push_back({path, rank});
    expected = rank + 1;
  }
  return files;
}

}  // namespace dlcnet::trace::chakra
