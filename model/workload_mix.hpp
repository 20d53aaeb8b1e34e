// A seeded mix of messages for the model's speed benchmark (bench/model_speed.sh), shaped like
// a training job on a star with other traffic:
// - half: a parameter-server job. Hosts 1..W push `keys` messages each to host 0 (4 KiB to
//   1 MiB, log-uniform, fixed per key), host 0 answers each push with a pull of the same size
//   `server_think_s` after the push arrived; a worker's next iteration posts its pushes
//   `compute_s` after its last pull arrived (dependencies, not start times);
// - half: background flows between random pairs of hosts, Poisson arrivals sized to load
//   every link to about `background_load`, sizes log-uniform from 1 KiB to 1 MiB.
#pragma once

#include <cstdint>
#include <vector>

#include "model/message.hpp"

namespace dlcnet::model {

struct MixSpec {
  uint64_t messages = 100000;  // about: the job rounds to whole iterations
  uint32_t hosts = 17;         // host 0 the server, the others workers
  uint32_t keys = 16;
  double link_rate_Bps = 12.5e9;  // 100 Gbit/s
  double compute_s = 200e-6, server_think_s = 5e-6;
  double background_load = 0.3;
  uint64_t seed = 1;
};

std::vector<Message> workload_mix(const MixSpec& spec);

}  // namespace dlcnet::model
