// Reading a job: a directory (or a list of directories and files) of per-node trace files, in
// the SketchDLC capture format or dlcnet's native CSV (docs/native-trace-format.md).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "trace/trace_diagnostics.hpp"
#include "trace/trace_model.hpp"

namespace dlcnet::trace {

// kStream: a file named on the command line that is not a regular file (a pipe, `<(...)`, a
// FIFO, a device): it can be read only once, so its format is told from its first bytes by the
// reader that then reads it (nothing is lost to a sniff, nothing is opened twice).
enum class FileKind { kSketchData, kSketchScheduler, kNative, kStream };

struct JobFile {
  std::string path;
  FileKind kind;
};

// The files of a job. A directory is searched recursively for trace_record*.txt (data),
// trace_sch_record*.txt (scheduler messages) and *.csv files that start with the native
// format's magic line; other files are left alone. A file named on the command line is taken
// whatever its name: scheduler file if its name says so, native if its first line is the
// native magic, else a SketchDLC data file (rejected in its first lines if it is not one).
// Paths that do not exist are errors in `diag`, and so are entries of a directory named like a
// trace file that are not regular files (a directory, a FIFO: never opened, never waited on).
// Sorted by path for reproducible output.
std::vector<JobFile> discover_job_files(std::span<const std::string> inputs, Diagnostics& diag);

struct LoadOptions {
  size_t keep_per_problem = 10000;  // diagnostics kept (with text) per kind; counts are exact
  bool read_scheduler_files = true;
};

// CPU seconds of this thread in each step of a load (for the benchmark: on a shared machine
// CPU time is steadier than wall time).
struct LoadTimings {
  double read_s = 0;     // reading and parsing the files, most dependencies resolved
  double resolve_s = 0;  // channel index, deferred dependencies, placing nodes
  double match_s = 0;    // messages
  double check_s = 0;    // dependency cycles
};

struct LoadResult {
  Job job;
  Diagnostics diagnostics;
  LoadTimings timings;
  bool ok() const noexcept { return diagnostics.errors() == 0; }
};

// Reads, resolves, matches and checks a job. Never throws for problems in the files (missing
// paths included): they are in the diagnostics, and the job holds whatever could be read (a
// node with errors keeps its good records).
LoadResult load_job(std::span<const std::string> inputs, const LoadOptions& options = {});

// load_job() that throws Error (with the first errors, file:line) unless the job is clean of
// errors. Warnings are allowed.
Job read_job(std::span<const std::string> inputs, const LoadOptions& options = {});

}  // namespace dlcnet::trace
