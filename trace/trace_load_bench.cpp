#include "trace/trace_load_bench.hpp"

#include <sys/resource.h>

#include <filesystem>

#include "core/clock.hpp"
#include "trace/trace_stats_report.hpp"

namespace dlcnet::trace {

uint64_t peak_rss_bytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<uint64_t>(ru.ru_maxrss) * 1024;  // kilobytes on Linux
}

LoadBench bench_load(std::span<const std::string> inputs) {
  LoadBench b;
  Diagnostics scratch;
  for (const JobFile& f : discover_job_files(inputs, scratch)) {
    std::error_code ec;
    b.input_bytes += std::filesystem::file_size(f.path, ec);
  }
  b.rss_before_bytes = peak_rss_bytes();
  const int64_t t0 = now_ns();
  b.result = load_job(inputs);
  const int64_t t1 = now_ns();
  b.peak_rss_bytes = peak_rss_bytes();
  b.seconds = ns_to_s(t1 - t0);
  return b;
}

nlohmann::json load_bench_json(const LoadBench& b) {
  const Job& job = b.result.job;
  const uint64_t records = job.record_count();
  const double seconds = b.seconds;
  const double per = records == 0 ? 0.0 : 1.0 / static_cast<double>(records);
  nlohmann::json doc;
  doc["records"] = records;
  doc["messages"] = job.messages.size();
  doc["input_bytes"] = b.input_bytes;
  doc["load_seconds"] = seconds;
  doc["records_per_second"] = seconds > 0 ? static_cast<double>(records) / seconds : 0.0;
  doc["input_bytes_per_second"] = seconds > 0 ? static_cast<double>(b.input_bytes) / seconds : 0.0;
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
  doc["peak_rss_bytes"] = b.peak_rss_bytes;
  doc["peak_rss_bytes_per_record"] = static_cast<double>(b.peak_rss_bytes) * per;
  doc["rss_before_load_bytes"] = b.rss_before_bytes;
  const LoadTimings& tm = b.result.timings;
  const double cpu = tm.read_s + tm.resolve_s + tm.match_s + tm.check_s;
  doc["cpu_seconds"] = {{"read", tm.read_s},
                        {"resolve", tm.resolve_s},
                        {"match", tm.match_s},
                        {"check", tm.check_s},
                        {"total", cpu}};
  doc["records_per_cpu_second"] = cpu > 0 ? static_cast<double>(records) / cpu : 0.0;
  doc["diagnostics"] = diagnostics_to_json(b.result.diagnostics);
  return doc;
}

}  // namespace dlcnet::trace
