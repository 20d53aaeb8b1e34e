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

bool trace_like_name(const fs::path& p) {
  return name_has(p, "trace_sch_record") ||
         (name_has(p, "trace_record") && p.extension() == ".txt") || p.extension() == ".csv";
}

std::string kind_of(const fs::file_status& st) {
  switch (st.type()) {
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::block:
    case fs::file_type::character:
      return "a device";
    default:
      return "not a regular file";
  }
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
        const fs::path& p = it->path();
        const fs::file_status est = it->status(ec);
        if (ec) {  // a dangling symbolic link, say: one entry, not the whole walk
          if (trace_like_name(p)) diag.add(Problem::kIo, p.string(), 0, ec.message());
          ec.clear();
          continue;
        }
        if (!fs::is_regular_file(est)) {
          // Named like a trace file but not one: say so, rather than skip it and leave the
          // user with an error about another file (a missing node, say).
          if (trace_like_name(p)) {
            diag.add(Problem::kIo, p.string(), 0,
                     "is " + kind_of(est) + ", not a regular file: a trace file must be one");
          }
          continue;
        }
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
    } else if (!fs::is_regular_file(st)) {
      files.push_back({input, FileKind::kStream});
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
