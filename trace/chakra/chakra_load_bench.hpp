// How fast a Chakra job loads and how much memory it takes (dlc-trace bench-load on a Chakra
// job, bench/chakra_load.sh): the load (reading, decoding, checking: chakra::load_job) timed in
// wall and this thread's CPU time, the bytes read, what the job's model holds (the nodes and
// their names and dependency lists) and the process's peak resident set.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "trace/chakra/chakra_loader.hpp"

namespace dlcnet::trace::chakra {

struct ChakraLoadBench {
  LoadResult result;
  uint64_t input_bytes = 0;
  double seconds = 0;      // wall time of load_job()
  double cpu_seconds = 0;  // this thread's CPU time in load_job()
  uint64_t rss_before_bytes = 0;
  uint64_t peak_rss_bytes = 0;
};

ChakraLoadBench bench_load(std::span<const std::string> inputs);

// The bytes the job's model holds: the rank array, every rank's node array (by capacity) and
// its store of names and dependency lists (chakra_node_store.hpp).
uint64_t model_bytes(const Job& job);

// The measurements as JSON: nodes, input bytes, load time, nodes per second and per CPU second,
// model bytes (and per node), peak RSS (and per node), diagnostics.
nlohmann::json load_bench_json(const ChakraLoadBench& b);

}  // namespace dlcnet::trace::chakra
