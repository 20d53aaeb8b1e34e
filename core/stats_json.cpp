#include "core/stats_json.hpp"

namespace dlcnet {

nlohmann::json latency_summary_json(const LatencySummary& s) {
  // nlohmann::json sorts object keys, so the order here is for the reader of this file.
  return {{"count", s.count}, {"min", s.min}, {"p50", s.p50},   {"p90", s.p90},    {"p99", s.p99},
          {"p99_9", s.p999},  {"max", s.max}, {"mean", s.mean}, {"stdev", s.stdev}};
}

}  // namespace dlcnet
