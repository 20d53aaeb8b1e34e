// Finding a job's files in the directories and files the user names.
#include <algorithm>
#include <filesystem>
#include <system_error>

#include "trace/trace_loader.hpp"
#include "trace/trace_native.hpp"

namespace dlcnet::trace {
namespace {

namespace fs = std::filesystem;

bool name_has(const fs::path& p, std::string_view part) {
  return p.filename().string().find(part) != std::string::npos;
}

}  // namespace

std::vector<JobFile> discover_job_files(std::span<const std::string> inputs, Diagnostics& diag) {
  std::vector<JobFile> files;
  for (const std::string& input : inputs) {
    std::error_code ec;
    const fs::file_status st = fs::status(input, ec);
    if (ec || !fs::exists(st)) {
      diag.add(Problem::kIo, input, 0, "no such file or directory");
      continue;
    }
    if (fs::is_directory(st)) {
      std::vector<JobFile> found;
      for (auto it = fs::recursive_directory_iterator(input, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        const fs::path& p = it->path();
        if (name_has(p, "trace_sch_record")) {
          found.push_back({p.string(), FileKind::kSketchScheduler});
        } else if (name_has(p, "trace_record") && p.extension() == ".txt") {
          found.push_back({p.string(), FileKind::kSketchData});
        } else if (p.extension() == ".csv" && is_native_file(p.string())) {
          found.push_back({p.string(), FileKind::kNative});
        }
      }
      if (ec) diag.add(Problem::kIo, input, 0, "cannot list directory: " + ec.message());
      if (found.empty()) {
        diag.add(Problem::kIo, input, 0,
                 "no trace files in this directory (looked for trace_record*.txt, "
                 "trace_sch_record*.txt and native *.csv)");
      }
      files.insert(files.end(), found.begin(), found.end());
      continue;
    }
    const fs::path p(input);
    if (name_has(p, "trace_sch_record")) {
      files.push_back({input, FileKind::kSketchScheduler});
    } else if (is_native_file(input)) {
      files.push_back({input, FileKind::kNative});
    } else {
      files.push_back({input, FileKind::kSketchData});
    }
  }
  std::sort(files.begin(), files.end(),
            [](const JobFile& a, const JobFile& b) { return a.path < b.path; });
  files.erase(std::unique(files.begin(), files.end(),
                          [](const JobFile& a, const JobFile& b) { return a.path == b.path; }),
              files.end());
  return files;
}

}  // namespace dlcnet::trace
