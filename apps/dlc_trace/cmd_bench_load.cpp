// dlc-trace bench-load JOB...: how fast a job loads and how much memory it takes (for
// bench/trace_load.sh). Prints one JSON object.
#include <sys/resource.h>

#include <filesystem>
#include <iostream>
#include <memory>

#include "apps/dlc_trace/commands.hpp"
#include "core/clock.hpp"
#include "core/run_context.hpp"
#include "trace/trace_loader.hpp"
#include "trace/trace_stats_report.hpp"

namespace dlcnet::trace::cli {
namespace {

struct BenchOptions {
  std::vector<std::string> inputs;
  std::string json;
};

uint64_t peak_rss_bytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;  // kilobytes on Linux
}

int run_bench(const BenchOptions& o, Argv args) {
  const std::unique_ptr<OutputFile> json = open_output("--json", o.json);  // before the work
  Diagnostics scratch;
  uint64_t input_bytes = 0;
  for (const JobFile& f : discover_job_files(o.inputs, scratch)) {
    std::error_code ec;
    input_bytes += std::filesystem::file_size(f.path, ec);
  }
  const uint64_t rss_before = peak_rss_bytes();
  const int64_t t0 = now_ns();
  const LoadResult res = load_job(o.inputs);
  const int64_t t1 = now_ns();
  const uint64_t rss_after = peak_rss_bytes();
  const Job& job = res.job;
  const uint64_t records = job.record_count();
  const double seconds = ns_to_s(t1 - t0);
  const double per = records == 0 ? 0.0 : 1.0 / static_cast<double>(records);
  nlohmann::json doc;
  doc["context"] = make_run_context("dlc-trace bench-load", args.argc, args.argv);
  doc["inputs"] = o.inputs;
  doc["records"] = records;
  doc["messages"] = job.messages.size();
  doc["input_bytes"] = input_bytes;
  doc["load_seconds"] = seconds;
  doc["records_per_second"] = seconds > 0 ? static_cast<double>(records) / seconds : 0.0;
  doc["input_bytes_per_second"] = seconds > 0 ? static_cast<double>(input_bytes) / seconds : 0.0;
  doc["model_bytes"] = job.memory_bytes();
  doc["model_bytes_per_record"] = static_cast<double>(job.memory_bytes()) * per;
  uint64_t rec_cap = 0, deps = 0, deps_cap = 0;
  for (const Node& n : job.nodes) {
    rec_cap += n.records.capacity();
    deps += n.deps.size();
    deps_cap += n.deps.capacity();
  }
  doc["model_breakdown"] = {{"record_bytes", sizeof(Record)},
                            {"records_capacity", rec_cap},
                            {"dependencies", deps},
                            {"dependencies_capacity", deps_cap},
                            {"messages", job.messages.size()},
                            {"message_bytes", sizeof(Message)}};
  doc["peak_rss_bytes"] = rss_after;
  doc["peak_rss_bytes_per_record"] = static_cast<double>(rss_after) * per;
  doc["rss_before_load_bytes"] = rss_before;
  const LoadTimings& tm = res.timings;
  const double cpu = tm.read_s + tm.resolve_s + tm.match_s + tm.check_s;
  doc["cpu_seconds"] = {{"read", tm.read_s},
                        {"resolve", tm.resolve_s},
                        {"match", tm.match_s},
                        {"check", tm.check_s},
                        {"total", cpu}};
  doc["records_per_cpu_second"] = cpu > 0 ? static_cast<double>(records) / cpu : 0.0;
  doc["diagnostics"] = diagnostics_to_json(res.diagnostics);
  std::cout << doc.dump(2) << '\n';
  if (json) write_json_file(*json, doc);
  return res.ok() ? kExitOk : kExitRejected;
}

}  // namespace

void add_bench_load(CLI::App& app, int* exit, Argv args) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand(
      "bench-load", "Time loading a job (records/s, bytes held per record, peak RSS) as JSON");
  sub->add_option("JOB", o->inputs, "job directory, or node files")->required();
  sub->add_option("--json", o->json, "also write the JSON to this file");
  sub->callback([o, exit, args] { *exit = run_bench(*o, args); });
}

}  // namespace dlcnet::trace::cli
