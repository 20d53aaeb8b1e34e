#include "patterns/bench_report.hpp"

#include <sstream>

#include "core/stats_json.hpp"
#include "core/table.hpp"

namespace dlcnet {
namespace {

// Wide enough for 9999999.99 usec or 999.99 Gb/sec, so streamed rows line up.
constexpr size_t kMinColumnWidth = 10;

// perftest's column names; the units move to their own line.
const std::vector<Column> kLatColumns = {
    {"#bytes", ""},      {"#iterations", ""},        {"t_min", "usec"},
    {"t_max", "usec"},   {"t_typical", "usec"},      {"t_avg", "usec"},
    {"t_stdev", "usec"}, {"99% percentile", "usec"}, {"99.9% percentile", "usec"}};
const std::vector<Column> kBwColumns = {{"#bytes", ""},
                                        {"#iterations", ""},
                                        {"BW peak", "Gb/sec"},
                                        {"BW average", "Gb/sec"},
                                        {"MsgRate", "Mpps"}};

std::vector<std::string> cells(const SizeResult& r, BenchKind kind) {
  auto us = [](double s) { return fixed(s * 1e6, 2); };
  auto gbps = [](double bps) { return fixed(bps * 8 / 1e9, 2); };
  if (kind == BenchKind::lat) {
    const LatencySummary& l = r.latency;
    return {std::to_string(r.bytes),
            std::to_string(r.iterations),
            us(l.min),
            us(l.max),
            us(l.p50),
            us(l.mean),
            us(l.stdev),
            us(l.p99),
            us(l.p999)};
  }
  const BandwidthSummary& b = r.bandwidth;
  return {std::to_string(r.bytes), std::to_string(r.iterations), gbps(b.peak_bps),
          gbps(b.average_bps), fixed(b.message_rate / 1e6, 6)};
}

// Column widths fixed up front so rows can stream as sizes finish.
Table make_table(BenchKind kind, const SizeResult* widest) {
  Table t(kind == BenchKind::lat ? kLatColumns : kBwColumns, kMinColumnWidth);
  if (widest) t.add_row(cells(*widest, kind));
  return t;
}

}  // namespace

void BenchTablePrinter::header() {
  std::ostringstream tmp;
  make_table(kind_, nullptr).print(tmp);
  out_ << tmp.str() << std::flush;
}

void BenchTablePrinter::row(const SizeResult& r) {
  // Print a one-row table and drop its two header lines, so widths match the header's.
  std::ostringstream tmp;
  make_table(kind_, &r).print(tmp);
  std::string text = tmp.str();
  size_t cut = text.find('\n', text.find('\n') + 1) + 1;
  out_ << text.substr(cut) << std::flush;
}

nlohmann::json bench_json(const BenchResult& r, const std::string& error) {
  nlohmann::json test = {
      {"kind", to_string(r.spec.kind)},
      {"op", to_string(r.spec.op)},
      {"iterations", r.spec.iterations},
      {"duration_s", r.spec.duration_s},
      {"warmup", r.spec.warmup},
      {"tx_depth", r.spec.tx_depth},
      {"latency_is", r.spec.kind == BenchKind::lat
                         ? (r.spec.op == Op::read ? "round trip" : "half the round trip")
                         : "n/a"},
      {"percentile_method", "nearest rank, no samples dropped"}};
  nlohmann::json results = nlohmann::json::array();
  for (const SizeResult& s : r.sizes) {
    nlohmann::json j = {{"bytes", s.bytes}, {"iterations", s.iterations}};
    if (r.spec.kind == BenchKind::lat) {
      j["latency_s"] = latency_summary_json(s.latency);
    } else {
      const BandwidthSummary& b = s.bandwidth;
      j["bandwidth"] = {{"average_bytes_per_s", b.average_bps},
                        {"peak_bytes_per_s", b.peak_bps},
                        {"message_rate_per_s", b.message_rate},
                        {"seconds", b.seconds},
                        {"bytes_total", b.bytes}};
    }
    results.push_back(j);
  }
  nlohmann::json doc = {{"test", test}, {"results", results}, {"complete", error.empty()}};
  if (!error.empty()) doc["error"] = error;
  return doc;
}

}  // namespace dlcnet
