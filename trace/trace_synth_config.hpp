// A synthetic job's configuration (trace/trace_synth.hpp) sized and described: the iterations
// that give about a number of records, and the configuration as the JSON written beside the
// job (DIR/synth.json), so that checks know what to expect.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "trace/trace_synth.hpp"

namespace dlcnet::trace {

// The iterations for about `records` records (at least 1): the record count is affine in the
// iterations, so two counts (1 and 2 iterations) give it.
uint32_t iterations_for_records(const SynthConfig& config, uint64_t records);

// workers, servers, iterations, the model and its parameters, the times, seed, and `records`.
nlohmann::json synth_config_json(const SynthConfig& config, uint64_t records);

}  // namespace dlcnet::trace
