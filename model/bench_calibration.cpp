#include "model/bench_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/error.hpp"
#include "core/star_ports.hpp"
#include "model/star_link.hpp"

namespace dlcnet::model {
namespace {

const nlohmann::json& key(const nlohmann::json& j, const char* name, const std::string& where) {
  if (!j.is_object() || !j.contains(name)) {
    throw Error(where + ": missing key \"" + name + "\" (not a dlc-bench lat or bw report?)");
  }
  return j.at(name);
}

double positive(const nlohmann::json& j, const char* name, const std::string& where) {
  const nlohmann::json& v = key(j, name, where);
  if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>())) {
    throw Error(where + ": \"" + name + "\" = " + v.dump() + ": a positive number expected");
  }
  return v.get<double>();
}

}  // namespace

Calibration calibration_from_bench(const std::vector<BenchReport>& reports, LinkRateFrom from,
                                   nlohmann::json* chosen) {
  std::map<uint64_t, double> latency;  // bytes -> fastest one-way, s
  double rate = 0;
  std::optional<StarLink> star;  // of the first bw report that ran on a star
  std::string star_file;
  for (const BenchReport& r : reports) {
    const nlohmann::json& doc = *r.doc;
    const std::string kind = key(key(doc, "test", r.file), "kind", r.file + ": test").dump();
    if (kind != "\"lat\"" && kind != "\"bw\"") {
      throw Error(r.file + ": test.kind " + kind + ": a lat or bw report expected");
    }
    const nlohmann::json& results = key(doc, "results", r.file);
    if (!results.is_array() || results.empty()) throw Error(r.file + ": \"results\" is empty");
    for (size_t i = 0; i < results.size(); ++i) {
      const std::string where = r.file + ": results[" + std::to_string(i) + "]";
      const double bytes = positive(results[i], "bytes", where);
      // A size is whole and below 2^64: converting any other double is undefined.
      if (bytes != std::floor(bytes) || bytes >= 0x1p64) {
        throw Error(where + ": \"bytes\" = " + results[i].at("bytes").dump() +
                    ": a whole number of bytes below 2^64 expected");
      }
      if (kind == "\"lat\"") {
        latency[static_cast<uint64_t>(bytes)] =
            positive(key(results[i], "latency_s", where), "min", where + ".latency_s");
      } else {
        // The steady rate when the report has it: the average also counts the bytes the
        // sender's buffers took ahead of the wire at the start (socket buffers over UCX tcp).
        const nlohmann::json& bw = key(results[i], "bandwidth", where);
        const char* name = bw.is_object() && bw.contains("steady_bytes_per_s")
                               ? "steady_bytes_per_s"
                               : "average_bytes_per_s";
        rate = std::max(rate, positive(bw, name, where + ".bandwidth"));
      }
    }
    if (kind == "\"bw\"" && from != LinkRateFrom::bw && !star) {
      star = star_link_of(doc, r.file);
      if (star) star_file = r.file;
    }
  }
  std::string names;  // a kind missing from the whole set: the refusal names every input
  for (const BenchReport& r : reports) names += (names.empty() ? "" : ", ") + r.file;
  if (latency.empty()) throw Error("calibration: no dlc-bench lat report among " + names);
  if (rate <= 0) throw Error("calibration: no dlc-bench bw report among " + names);
  if (from == LinkRateFrom::star && !star) {
    throw Error("calibration: --link-rate star: no bw report among " + names +
                " ran on a namespace star (its context.star is missing)");
  }
  Calibration c;
  c.link_rate_Bps = rate;
  c.header_bytes = 0;
  if (star) {
    c.link_rate_Bps = star->rate_Bps;
    c.payload_bytes = star->payload_bytes;
    c.header_bytes = star->header_bytes;
    c.bucket_bytes = star->bucket_bytes;
    c.burst_rate_Bps = kStarVethRateBps;
  }
  c.base_latency_s = latency.begin()->second;
  for (const auto& [bytes, fastest] : latency) {
    const double o =
        std::max(0.0, fastest - c.base_latency_s - c.wire_bytes(bytes) / c.link_rate_Bps);
    c.overhead_by_size.push_back({bytes, o});
  }
  if (chosen) {
    *chosen = {{"from", star ? "star" : "bw"}, {"bw_steady_payload_Bps", rate}};
    if (star) {
      (*chosen)["star"] = {{"file", star_file},
                           {"tbf_rate", star->rate_text},
                           {"frames_Bps", star->rate_Bps},
                           {"mtu", star->mtu},
                           {"payload_bytes", star->payload_bytes},
                           {"header_bytes", star->header_bytes},
                           {"bucket_bytes", star->bucket_bytes},
                           {"payload_Bps", star->payload_Bps()}};
      (*chosen)["bw_over_star_payload"] = rate / star->payload_Bps();
    }
  }
  return c;
}

}  // namespace dlcnet::model
