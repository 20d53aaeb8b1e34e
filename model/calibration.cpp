#include "model/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.hpp"
#include "core/json_file.hpp"

namespace dlcnet::model {
namespace {

// Rates from 1 B/s to 8 Pbit/s, times up to an hour: past them a message's predicted time no
// longer fits fct.txt's nanoseconds, and the refusal would name the output, not this file.
constexpr double kMinRate = 1, kMaxRate = 1e15, kMaxTime = 3600;

double number(const nlohmann::json& j, const char* key, const std::string& source, double min,
              double max, bool required, double fallback) {
  if (!j.contains(key)) {
    if (required) throw Error(source + ": calibration: missing key \"" + key + "\"");
    return fallback;
  }
  const nlohmann::json& v = j.at(key);
  if (!v.is_number()) throw Error(source + ": calibration: \"" + key + "\" is not a number");
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < min || x > max) {
    std::ostringstream msg;  // 6 digits: 2e+23, not 1.9999999999999998e+23 (dump())
    msg << source << ": calibration: \"" << key << "\" = " << x << ": from " << min << " to "
        << max;
    throw Error(msg.str());
  }
  return x;
}

uint32_t whole(const nlohmann::json& j, const char* key, const std::string& source, uint32_t min,
               uint32_t fallback) {
  if (!j.contains(key)) return fallback;
  const nlohmann::json& v = j.at(key);
  if (!v.is_number_unsigned() || v.get<uint64_t>() < min || v.get<uint64_t>() > UINT32_MAX) {
    throw Error(source + ": calibration: \"" + key + "\" = " + v.dump() + ": a whole number from " +
                std::to_string(min));
  }
  return v.get<uint32_t>();
}

}  // namespace

double Calibration::overhead_for(uint64_t bytes) const noexcept {
  if (overhead_by_size.empty()) return overhead_s;
  auto it = std::upper_bound(overhead_by_size.begin(), overhead_by_size.end(), bytes,
                             [](uint64_t b, const SizeOverhead& s) { return b < s.min_bytes; });
  return it == overhead_by_size.begin() ? overhead_s : std::prev(it)->overhead_s;
}

double Calibration::wire_bytes(uint64_t bytes) const noexcept {
  const uint64_t packets = bytes == 0 ? 1 : (bytes - 1) / payload_bytes + 1;
  return static_cast<double>(bytes) + static_cast<double>(packets) * header_bytes;
}

Calibration calibration_from_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object()) throw Error(source + ": calibration: not a JSON object");
  Calibration c;
  c.link_rate_Bps = number(j, "link_rate_Bps", source, kMinRate, kMaxRate, true, 0);
  c.base_latency_s = number(j, "base_latency_s", source, 0, kMaxTime, true, 0);
  c.overhead_s = number(j, "overhead_s", source, 0, kMaxTime, false, 0);
  if (j.contains("overhead_by_size")) {
    const nlohmann::json& list = j.at("overhead_by_size");
    if (!list.is_array()) throw Error(source + ": calibration: \"overhead_by_size\" is no list");
    for (const nlohmann::json& e : list) {
      if (!e.is_object() || !e.contains("min_bytes") || !e.at("min_bytes").is_number_unsigned()) {
        throw Error(source + ": calibration: \"overhead_by_size\" entry " + e.dump() +
                    ": needs a whole \"min_bytes\"");
      }
      SizeOverhead s{e.at("min_bytes").get<uint64_t>(),
                     number(e, "overhead_s", source, 0, kMaxTime, true, 0)};
      if (!c.overhead_by_size.empty() && s.min_bytes <= c.overhead_by_size.back().min_bytes) {
        throw Error(source + ": calibration: \"overhead_by_size\": min_bytes must ascend");
      }
      c.overhead_by_size.push_back(s);
    }
  }
  if (j.contains("packet")) {
    const nlohmann::json& p = j.at("packet");
    if (!p.is_object()) throw Error(source + ": calibration: \"packet\" is not an object");
    c.payload_bytes = whole(p, "payload_bytes", source, 1, c.payload_bytes);
    c.header_bytes = whole(p, "header_bytes", source, 0, c.header_bytes);
  }
  if (j.contains("bucket")) {
    const nlohmann::json& b = j.at("bucket");
    if (!b.is_object()) throw Error(source + ": calibration: \"bucket\" is not an object");
    c.bucket_bytes = number(b, "bytes", source, 0, kMaxRate, true, 0);
    c.burst_rate_Bps = number(b, "burst_rate_Bps", source, kMinRate, kMaxRate, true, 0);
  }
  return c;
}

Calibration read_calibration(const std::string& path) {
  const nlohmann::json j = read_json_file(path, "the calibration");
  return interpret_json(path, [&] { return calibration_from_json(j, path); });
}

nlohmann::json to_json(const Calibration& c) {
  nlohmann::json j{
      {"link_rate_Bps", c.link_rate_Bps},
      {"base_latency_s", c.base_latency_s},
      {"overhead_s", c.overhead_s},
      {"packet", {{"payload_bytes", c.payload_bytes}, {"header_bytes", c.header_bytes}}}};
  if (c.bucket_bytes > 0)
    j["bucket"] = {{"bytes", c.bucket_bytes}, {"burst_rate_Bps", c.burst_rate_Bps}};
  if (!c.overhead_by_size.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const SizeOverhead& s : c.overhead_by_size)
      list.push_back({{"min_bytes", s.min_bytes}, {"overhead_s", s.overhead_s}});
    j["overhead_by_size"] = list;
  }
  return j;
}

}  // namespace dlcnet::model
