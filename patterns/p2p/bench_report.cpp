#include "patterns/p2p/bench_report.hpp"

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
std::vector<Column> bw_columns(BwUnit unit) {
  return {{"#bytes", ""},
          {"#iterations", ""},
          {"BW peak", to_string(unit)},
          {"BW average", to_string(unit)},
          {"MsgRate", "Mpps"}};
}

// Bytes per second in the unit.
double in_unit(double bytes_per_s, BwUnit unit) {
  return unit == BwUnit::gb_per_s ? bytes_per_s * 8 / 1e9 : bytes_per_s / 1048576.0;
}

std::vector<std::string> cells(const SizeResult& r, BenchKind kind, BwUnit unit) {
  auto us = [](double s) { return fixed(s * 1e6, 2); };
  auto bw = [unit](double bps) { return fixed(in_unit(bps, unit), 2); };
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
  return {std::to_string(r.bytes), std::to_string(r.iterations), bw(b.peak_bps), bw(b.average_bps),
          fixed(b.message_rate / 1e6, 6)};
}

// Column widths fixed up front so rows can stream as sizes finish.
Table make_table(BenchKind kind, BwUnit unit, const SizeResult* widest) {
  Table t(kind == BenchKind::lat ? kLatColumns : bw_columns(unit), kMinColumnWidth);
  if (widest) t.add_row(cells(*widest, kind, unit));
  return t;
}

}  // namespace

const char* to_string(BwUnit u) noexcept {
  return u == BwUnit::gb_per_s ? "Gb/sec" : "MB/sec";
}

void BenchTablePrinter::header() {
  std::ostringstream tmp;
  make_table(kind_, unit_, nullptr).print(tmp);
  out_ << tmp.str() << std::flush;
}

void BenchTablePrinter::row(const SizeResult& r) {
  // Print a one-row table and drop its two header lines, so widths match the header's.
  std::ostringstream tmp;
  make_table(kind_, unit_, &r).print(tmp);
  std::string text = tmp.str();
  size_t cut = text.find('\n', text.find('\n') + 1) + 1;
  out_ << text.substr(cut) << std::flush;
}

void BenchTablePrinter::samples(const SizeResult& r) {
  out_ << "# -H: " << r.latency_samples_s.size() << " latency samples of " << r.bytes
       << " bytes\n#, usec\n";
  for (size_t i = 0; i < r.latency_samples_s.size(); ++i) {
    out_ << i << ", " << fixed(r.latency_samples_s[i] * 1e6, 3) << '\n';
  }
  out_ << std::flush;
}

nlohmann::json bench_json(const BenchResult& r, BwUnit unit, const std::string& error) {
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
      {"percentile_method", "nearest rank, no samples dropped"},
      {"console_bw_unit", to_string(unit)}};
  nlohmann::json results = nlohmann::json::array();
  for (const SizeResult& s : r.sizes) {
    nlohmann::json j = {{"bytes", s.bytes}, {"iterations", s.iterations}};
    if (r.spec.kind == BenchKind::lat) {
      j["latency_s"] = latency_summary_json(s.latency);
      if (!s.latency_samples_s.empty()) j["latency_samples_s"] = s.latency_samples_s;
    } else {
      const BandwidthSummary& b = s.bandwidth;
      j["bandwidth"] = {{"average_bytes_per_s", b.average_bps},
                        {"peak_bytes_per_s", b.peak_bps},
                        {"steady_bytes_per_s", b.steady_bps},
                        {"message_rate_per_s", b.message_rate},
                        {"seconds", b.seconds},
                        {"bytes_total", b.bytes},
                        // The console's units: perftest's MB (2^20 bytes) and Gb (10^9 bits).
                        {"average_mb_per_s", in_unit(b.average_bps, BwUnit::mb_per_s)},
                        {"peak_mb_per_s", in_unit(b.peak_bps, BwUnit::mb_per_s)},
                        {"average_gbit_per_s", in_unit(b.average_bps, BwUnit::gb_per_s)},
                        {"peak_gbit_per_s", in_unit(b.peak_bps, BwUnit::gb_per_s)}};
    }
    results.push_back(j);
  }
  nlohmann::json doc = {{"test", test}, {"results", results}, {"complete", error.empty()}};
  if (!error.empty()) doc["error"] = error;
  return doc;
}

}  // namespace dlcnet
