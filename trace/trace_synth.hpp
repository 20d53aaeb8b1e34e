// Generating a valid job: W workers and S servers training a model given as a list of
// parameter sizes, synchronous data-parallel SGD through a parameter server as MXNet's
// dist_sync kvstore does it. Seeded and reproducible (own PRNG, integer microsecond times).
// The timing model is in docs/trace-model.md ("Synthetic jobs").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_model.hpp"

namespace dlcnet::trace {

struct ModelParam {
  std::string name;
  uint64_t bytes = 0;  // payload: elements x 4 (float32)
};

struct ModelSpec {
  std::string name;
  std::vector<ModelParam> params;  // key i = params[i]
  // ps-lite meta bytes of every message: a push acknowledgement or a pull request is only
  // this; a push or a pull reply is this plus the payload.
  uint32_t meta_bytes = 64;
};

// "lenet5" (8 keys, messages 73 B to 1.6 MB) and "resnet50" (157 keys, 47 B to 9.44 MB).
std::vector<std::string> preset_names();
// Throws Error listing the presets for an unknown name.
ModelSpec preset_model(std::string_view name);
// A model file: one parameter a line, "bytes" or "name bytes"; '#' starts a comment. Sizes take
// K/M/G suffixes (binary). Throws Error naming file:line.
ModelSpec read_model_file(const std::string& path);
// "2000,80,100K": sizes in bytes.
ModelSpec model_from_sizes(std::string_view list);

struct SynthConfig {
  uint16_t workers = 2;
  uint16_t servers = 1;
  uint32_t iterations = 10;
  ModelSpec model;
  double compute_s = 0.010;  // computation per iteration at each worker (phases 1 + 2)
  // Phase 2 / computation: the pushes are spread over this last share of the computation.
  // Stats' overlap ratio divides phase 2 by the iteration time instead (SketchDLC), so it
  // reads overlap x computation / iteration time (tests/trace/trace_synth_test.cpp).
  double overlap = 0.5;
  double update_s = 50e-6;   // server update time per key, after the last worker's push
  double search_s = 5e-6;    // server time to answer a pull
  double think_s = 2e-6;     // worker time from a push acknowledgement to its pull request
  double jitter = 0.05;      // relative, uniform in [-jitter, +jitter], on the four times above
  double latency_s = 20e-6;  // one-way latency of a message, before its bytes
  double bandwidth_Bps = 1.25e9;  // bytes a second on each link (10 Gb/s)
  uint64_t split_above = 0;       // keys larger than this are split over all servers; 0: never
  double clock_skew_s = 2.0;      // each node's clock is off by up to this much (unsynchronised)
  uint64_t seed = 1;
  int64_t start_epoch_s = 1'500'000'000;  // wall-clock start of the capture
  bool scheduler_files = true;            // also write the trace_sch_record.txt files
};

// Throws Error naming the option for a configuration that cannot be generated.
void check_config(const SynthConfig& config);
// Records the job will have (data files only), for sizing a run before generating it.
uint64_t synth_record_count(const SynthConfig& config);
// The job, all nodes present, messages matched, ready for write_sketch_job().
Job synthesize(const SynthConfig& config);

}  // namespace dlcnet::trace
