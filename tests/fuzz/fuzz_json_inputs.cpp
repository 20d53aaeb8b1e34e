// libFuzzer target: the JSON inputs of dlc-compare, through the one JSON reader
// (core/json_file.hpp: parse_json, interpret_json) and what each command makes of the document,
// the first byte picking which:
//   0  a calibration (`--calibration`): model::calibration_from_json;
//   1  a dlc-bench fanin report with its qdisc series (`queue` MEASURED): fanin_queue;
//   2  dlc-bench lat and bw reports (`calibrate`): the rest of the input, cut at its first NUL
//      into two documents, through model::calibration_from_bench.
// What must hold: a value that keeps the reader's promises (a calibration with a positive
// finite rate, finite non-negative times and its size overheads in ascending order; a series
// in time order with finite, non-negative lengths; rounds with finite times) or an Error whose
// message starts with the file's name (`cal.json:3:22: base_latency_s: number overflow ...`;
// calibrate's "no dlc-bench lat report among lat.json, bw.json" names every input instead);
// no other exception, crash or sanitizer report.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "compare/queue_fanin.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "model/bench_calibration.hpp"
#include "model/calibration.hpp"

namespace {

bool finite_at_least(double x, double min) {
  return std::isfinite(x) && x >= min;
}

void check_calibration(const dlcnet::model::Calibration& c) {
  if (!finite_at_least(c.link_rate_Bps, 0) || c.link_rate_Bps == 0 ||
      !finite_at_least(c.base_latency_s, 0) || !finite_at_least(c.overhead_s, 0) ||
      c.payload_bytes == 0) {
    __builtin_trap();
  }
  for (size_t i = 0; i < c.overhead_by_size.size(); ++i) {
    if (!finite_at_least(c.overhead_by_size[i].overhead_s, 0)) __builtin_trap();
    if (i > 0 && c.overhead_by_size[i].min_bytes < c.overhead_by_size[i - 1].min_bytes) {
      __builtin_trap();
    }
  }
  (void)c.wire_bytes(UINT64_MAX);
  (void)c.overhead_for(UINT64_MAX);
}

void check_fanin(const dlcnet::compare::FaninQueue& q) {
  const auto& p = q.series.points;
  for (size_t i = 0; i < p.size(); ++i) {
    if (!std::isfinite(p[i].t_s) || !finite_at_least(p[i].bytes, 0) ||
        (i > 0 && p[i].t_s < p[i - 1].t_s)) {
      __builtin_trap();
    }
  }
  for (const dlcnet::compare::QueueRound& r : q.rounds) {
    if (!std::isfinite(r.first_post_s) || !std::isfinite(r.last_arrival_s)) __builtin_trap();
  }
  if (q.origin_from == "flow_origin_s" && !std::isfinite(q.origin_s)) __builtin_trap();
}

void read(int format, std::string_view text, const std::string& name) {
  switch (format) {
    case 0: {
      const nlohmann::json doc = dlcnet::parse_json(text, name);
      check_calibration(dlcnet::interpret_json(
          name, [&] { return dlcnet::model::calibration_from_json(doc, name); }));
      break;
    }
    case 1: {
      const nlohmann::json doc = dlcnet::parse_json(text, name);
      check_fanin(
          dlcnet::interpret_json(name, [&] { return dlcnet::compare::fanin_queue(doc, name); }));
      break;
    }
    default: {
      // "lat.json" and "bw.json" share the name's prefix: either may be the one named.
      const size_t nul = text.find('\0');
      std::vector<nlohmann::json> docs{dlcnet::parse_json(text.substr(0, nul), name)};
      if (nul != std::string_view::npos) {
        docs.push_back(dlcnet::parse_json(text.substr(nul + 1), name));
      }
      std::vector<dlcnet::model::BenchReport> reports;
      for (const nlohmann::json& d : docs) reports.push_back({name, &d});
      // automatic: a bw report's star description (model/star_link.hpp) is read too.
      check_calibration(dlcnet::interpret_json(name, [&] {
        return dlcnet::model::calibration_from_bench(reports,
                                                     dlcnet::model::LinkRateFrom::automatic);
      }));
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kNames[] = {"cal.json", "fanin.json", "bench.json"};
  const int format = data[0] % 3;
  const std::string name = kNames[format];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    read(format, text, name);
  } catch (const dlcnet::Error& e) {
    const std::string what = e.what();
    // names its file first; a kind missing from the whole set of reports names every one
    if (what.rfind(name + ":", 0) != 0 && what.find(" among " + name) == std::string::npos) {
      __builtin_trap();
    }
  }
  return 0;
}
