#include "trace/trace_synth_config.hpp"

namespace dlcnet::trace {

uint32_t iterations_for_records(const SynthConfig& config, uint64_t records) {
  SynthConfig one = config;
  one.iterations = 1;
  SynthConfig two = config;
  two.iterations = 2;
  const uint64_t base = synth_record_count(one);
  const uint64_t per = synth_record_count(two) - base;
  return static_cast<uint32_t>(1 + (records > base ? (records - base + per / 2) / per : 0));
}

nlohmann::json synth_config_json(const SynthConfig& c, uint64_t records) {
  nlohmann::json j;
  j["workers"] = c.workers;
  j["servers"] = c.servers;
  j["iterations"] = c.iterations;
  j["model"] = c.model.name;
  j["meta_bytes"] = c.model.meta_bytes;
  nlohmann::json params = nlohmann::json::array();
  for (const ModelParam& p : c.model.params)
    params.push_back({{"name", p.name}, {"bytes", p.bytes}});
  j["params"] = params;
  j["compute_s"] = c.compute_s;
  j["overlap"] = c.overlap;
  j["update_s"] = c.update_s;
  j["search_s"] = c.search_s;
  j["think_s"] = c.think_s;
  j["jitter"] = c.jitter;
  j["latency_s"] = c.latency_s;
  j["bandwidth_Bps"] = c.bandwidth_Bps;
  j["split_above"] = c.split_above;
  j["clock_skew_s"] = c.clock_skew_s;
  j["seed"] = c.seed;
  j["records"] = records;
  return j;
}

}  // namespace dlcnet::trace
