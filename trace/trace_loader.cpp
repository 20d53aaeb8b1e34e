#include "trace/trace_loader.hpp"

#include <time.h>

#include <filesystem>
#include <optional>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "trace/trace_cycles.hpp"
#include "trace/trace_draft.hpp"
#include "trace/trace_matcher.hpp"
#include "trace/trace_native.hpp"

namespace dlcnet::trace {
namespace {

namespace fs = std::filesystem;

std::string dir_of(const std::string& path) {
  return fs::path(path).parent_path().string();
}

std::vector<NodeDraft> read_drafts(const std::vector<JobFile>& files, Diagnostics& diag,
                                   LoadTimings& timings) {
  std::vector<NodeDraft> drafts;
  for (const JobFile& f : files) {
    const double t0 = thread_cpu_s();
    const size_t first = drafts.size();
    FileKind kind = f.kind;
    std::optional<LineReader> stream;
    if (kind == FileKind::kStream) {
      // Opened once; the format from its first bytes, which stay in the reader's buffer.
      try {
        stream.emplace(f.path);
        kind = looks_native(stream->peek(kUtf8Bom.size() + kNativePrefix.size()))
                   ? FileKind::kNative
                   : FileKind::kSketchData;
      } catch (const Error& e) {
        diag.add(Problem::kIo, f.path, 0, e.what());
        continue;
      }
    }
    LineReader* in = stream ? &*stream : nullptr;
    if (kind == FileKind::kSketchData) {
      NodeDraft d;
      if (!read_sketch_data_file(f.path, d, diag, in)) continue;
      if (!d.identified) {
        diag.add(Problem::kSkippedFile, f.path, 0, "no records: cannot tell whose file it is");
        continue;
      }
      drafts.push_back(std::move(d));
    } else if (kind == FileKind::kNative) {
      read_native_file(f.path, drafts, diag, in);
    }
    const double t1 = thread_cpu_s();
    for (size_t i = first; i < drafts.size(); ++i) resolve_dependencies(drafts[i], diag);
    timings.read_s += t1 - t0;
    timings.resolve_s += thread_cpu_s() - t1;
  }
  return drafts;
}

// Places the drafts at their ranks; the first draft fixes the job's shape.
Job place_nodes(std::vector<NodeDraft>& drafts, std::vector<ChannelTable>& channels,
                Diagnostics& diag) {
  // Copies: the loop below moves the first draft's node (and its file name) into the job.
  const int32_t first_workers = drafts.front().num_workers;
  const int32_t first_servers = drafts.front().num_servers;
  const std::string first_file = drafts.front().node.file;
  Job job =
      make_job_skeleton(static_cast<uint16_t>(first_workers), static_cast<uint16_t>(first_servers));
  channels.resize(job.nodes.size());
  for (NodeDraft& d : drafts) {
    if (d.num_workers != first_workers || d.num_servers != first_servers) {
      diag.add(Problem::kInconsistentJob, d.node.file, 0,
               "this file's job has " + std::to_string(d.num_workers) + " workers and " +
                   std::to_string(d.num_servers) + " servers, " + first_file + "'s has " +
                   std::to_string(first_workers) + " and " + std::to_string(first_servers) +
                   ": files of different jobs");
      continue;
    }
    Node& slot = job.nodes[d.node.rank];
    if (slot.present) {
      diag.add(Problem::kInconsistentJob, d.node.file, 0,
               "a second file for " + slot.name() + " (the first is " + slot.file + ")");
      continue;
    }
    slot = std::move(d.node);
    slot.present = true;
    channels[slot.rank] = std::move(d.channels);
  }
  return job;
}

// trace_sch_record.txt belongs to the node whose data file sits in the same directory; one
// with no data file beside it is the scheduler's.
void attach_scheduler_files(Job& job, const std::vector<JobFile>& files, Diagnostics& diag) {
  for (const JobFile& f : files) {
    if (f.kind != FileKind::kSketchScheduler) continue;
    const std::string dir = dir_of(f.path);
    Node* owner = nullptr;
    int beside = 0;
    for (Node& n : job.nodes) {
      if (n.present && !n.file.empty() && dir_of(n.file) == dir) {
        owner = &n;
        ++beside;
      }
    }
    if (beside > 1) {
      diag.add(Problem::kSkippedFile, f.path, 0,
               "several data files beside it: cannot tell whose scheduler messages these are");
      continue;
    }
    if (owner == nullptr) owner = &job.nodes[job.scheduler_rank()];
    if (!owner->sch_file.empty()) {
      diag.add(Problem::kInconsistentJob, f.path, 0,
               "a second scheduler-message file for " + owner->name() + " (the first is " +
                   owner->sch_file + ")");
      continue;
    }
    read_sketch_sch_file(f.path, *owner, job.scheduler_rank(), diag);
  }
}

}  // namespace

LoadResult load_job(std::span<const std::string> inputs, const LoadOptions& options) {
  LoadResult res{Job{}, Diagnostics(options.keep_per_problem), LoadTimings{}};
  Diagnostics& diag = res.diagnostics;
  const std::vector<JobFile> files = discover_job_files(inputs, diag);
  std::vector<NodeDraft> drafts = read_drafts(files, diag, res.timings);
  if (drafts.empty()) {
    if (diag.errors() == 0) {
      diag.add(Problem::kIo, inputs.empty() ? std::string("(no input)") : inputs.front(), 0,
               "no trace records found");
    }
    return res;
  }
  double t = thread_cpu_s();
  std::vector<ChannelTable> channels;
  res.job = place_nodes(drafts, channels, diag);
  drafts.clear();
  if (options.read_scheduler_files) attach_scheduler_files(res.job, files, diag);
  double now = thread_cpu_s();
  res.timings.resolve_s += now - t;
  t = now;
  match_messages(res.job, channels, diag);
  channels.clear();
  channels.shrink_to_fit();
  now = thread_cpu_s();
  res.timings.match_s = now - t;
  check_cycles(res.job, diag);
  res.timings.check_s = thread_cpu_s() - now;
  return res;
}

Job read_job(std::span<const std::string> inputs, const LoadOptions& options) {
  LoadResult res = load_job(inputs, options);
  if (!res.ok()) {
    throw Error("trace rejected: " + std::to_string(res.diagnostics.errors()) + " errors\n" +
                res.diagnostics.first_errors(5));
  }
  return std::move(res.job);
}

}  // namespace dlcnet::trace
