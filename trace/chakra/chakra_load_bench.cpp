#include "trace/chakra/chakra_load_bench.hpp"

#include <time.h>

#include <filesystem>

#include "core/clock.hpp"
#include "trace/chakra/chakra_files.hpp"
#include "trace/trace_load_bench.hpp"
#include "trace/trace_stats_report.hpp"

namespace dlcnet::trace::chakra {
namespace {

uint64_t nodes_of(const Job& job) {
  uint64_t n = 0;
  for (const Rank& r : job.ranks) n += r.nodes.size();
  return n;
}

}  // namespace

ChakraLoadBench bench_load(std::span<const std::string> inputs) {
  ChakraLoadBench b;
  Diagnostics scratch;
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (std::filesystem::is_directory(in, ec)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(in, ec)) {
        if (e.is_regular_file(ec)) b.input_bytes += e.file_size(ec);
      }
    } else {
      b.input_bytes += std::filesystem::file_size(in, ec);
    }
  }
  b.rss_before_bytes = trace::peak_rss_bytes();
  const double c0 = thread_cpu_s();
  const int64_t t0 = now_ns();
  b.result = load_job(inputs);
  b.seconds = ns_to_s(now_ns() - t0);
  b.cpu_seconds = thread_cpu_s() - c0;
  b.peak_rss_bytes = trace::peak_rss_bytes();
  return b;
}

uint64_t model_bytes(const Job& job) {
  uint64_t bytes = job.ranks.capacity() * sizeof(Rank);
  for (const Rank& r : job.ranks) {
    bytes += r.nodes.capacity() * sizeof(Node);
    bytes += r.store.bytes();
  }
  return bytes;
}

nlohmann::json load_bench_json(const ChakraLoadBench& b) {
  const uint64_t nodes = nodes_of(b.result.job);
  const double per = nodes == 0 ? 0.0 : 1.0 / static_cast<double>(nodes);
  const uint64_t model = model_bytes(b.result.job);
  nlohmann::json doc;
  doc["format"] = "chakra";
  doc["ranks"] = b.result.job.world;
  doc["nodes"] = nodes;
  doc["input_bytes"] = b.input_bytes;
  doc["load_seconds"] = b.seconds;
  doc["cpu_seconds"] = {{"read", b.result.read_cpu_s}, {"total", b.cpu_seconds}};
  doc["nodes_per_second"] = b.seconds > 0 ? static_cast<double>(nodes) / b.seconds : 0.0;
  doc["nodes_per_cpu_second"] =
      b.cpu_seconds > 0 ? static_cast<double>(nodes) / b.cpu_seconds : 0.0;
  doc["model_bytes"] = model;
  doc["model_bytes_per_node"] = static_cast<double>(model) * per;
  doc["node_bytes"] = sizeof(Node);
  doc["peak_rss_bytes"] = b.peak_rss_bytes;
  doc["peak_rss_bytes_per_node"] = static_cast<double>(b.peak_rss_bytes) * per;
  doc["rss_before_load_bytes"] = b.rss_before_bytes;
  doc["diagnostics"] = diagnostics_to_json(b.result.diagnostics);
  return doc;
}

}  // namespace dlcnet::trace::chakra
