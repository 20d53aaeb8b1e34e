#include "compare/queue_hpcc.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "flows/line_fields.hpp"

namespace dlcnet::compare {
namespace {

constexpr double kBinBytes = 1000;  // HPCC's qlen / 1000

double bin_bytes(size_t i) {
  return i == 0 ? 0.0 : (static_cast<double>(i) + 0.5) * kBinBytes;
}

struct Port {
  QueueSeries series;
  std::vector<uint64_t> counts;  // the last block's, cumulative
  double last_block_s = -1;
  int64_t last_block_no = 0;
};

}  // namespace

std::vector<QueueSeries> read_hpcc_qlen(std::istream& in, const std::string& file,
                                        double sample_s) {
  LineFields f(in, file);
  std::map<std::pair<int64_t, int64_t>, Port> ports;
  bool in_block = false;
  double block_s = 0;
  uint64_t block_ns = 0;
  int64_t block_no = 0;
  while (f.next_line()) {
    const size_t first = f.line().find_first_not_of(" \t");
    if (f.line().compare(first, 5, "time:") == 0) {
      if (f.text("time:") != "time:") f.fail_line("expected \"time: <ns>\"");
      const uint64_t previous = block_ns;
      block_ns = f.whole("time");
      f.expect_end("time: <ns>");
      if (in_block && block_ns < previous) {
        f.fail("time", std::to_string(block_ns) + " is before the previous block's " +
                           std::to_string(previous));
      }
      in_block = true;
      ++block_no;
      block_s = static_cast<double>(block_ns) * 1e-9;
      continue;
    }
    if (!in_block) f.fail_line("a port's line before the first \"time:\" line");
    const auto sw = static_cast<int64_t>(f.whole32("switch"));
    const auto port = static_cast<int64_t>(f.whole32("port"));
    Port& p = ports[{sw, port}];
    if (p.last_block_no == 0) {
      p.series.file = file;
      p.series.format = "hpcc";
      p.series.port = {sw, port, -1};
      p.series.shape = QueueShape::step;
    }
    if (p.last_block_no == block_no) {
      f.fail_line("port " + std::to_string(sw) + " " + std::to_string(port) +
                  " twice in the block of time " + std::to_string(block_ns));
    }
    std::vector<uint64_t> counts;
    while (!f.at_end()) counts.push_back(f.whole("c" + std::to_string(counts.size())));
    if (counts.size() < p.counts.size()) {
      f.fail("c" + std::to_string(counts.size()),
             "missing: the counts are cumulative and the previous block had " +
                 std::to_string(p.counts.size()) + " bins");
    }
    uint64_t n = 0;
    double sum = 0, top = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
      const uint64_t before = i < p.counts.size() ? p.counts[i] : 0;
      if (counts[i] < before) {
        f.fail("c" + std::to_string(i),
               std::to_string(counts[i]) + " is below the previous block's " +
                   std::to_string(before) + " (the counts are cumulative)");
      }
      const uint64_t d = counts[i] - before;
      n += d;
      sum += static_cast<double>(d) * bin_bytes(i);
      if (d > 0) top = bin_bytes(i);
    }
    const double start = p.last_block_s >= 0
                             ? p.last_block_s
                             : std::max(0.0, block_s - static_cast<double>(n) * sample_s);
    if (n > 0) p.series.points.push_back({start, sum / static_cast<double>(n), top});
    p.counts = std::move(counts);
    p.last_block_s = block_s;
    p.last_block_no = block_no;
  }
  std::vector<QueueSeries> out;
  for (auto& [key, p] : ports) out.push_back(std::move(p.series));
  return out;
}

std::vector<QueueSeries> read_hpcc_qlen(const std::string& path, double sample_s) {
  return read_input(path, "HPCC's queue monitor",
                    [&](std::istream& in) { return read_hpcc_qlen(in, path, sample_s); });
}

}  // namespace dlcnet::compare
