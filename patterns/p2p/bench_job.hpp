// One dlc-bench test as a job of two ranks on the job layer (launch/job.hpp): the server is
// rank 0, the client rank 1, or both ends in this process (--loopback). The client prints and
// writes the reports.
#pragma once

#include <cstdint>
#include <string>

#include "core/transport.hpp"
#include "patterns/p2p/bench_spec.hpp"

namespace dlcnet::bench {

// dlc-bench's command line as plain data (apps/dlc_bench/options.cpp fills it).
struct Options {
  BenchSpec spec;
  TransportOptions transport;
  std::string transport_kind = "auto";
  std::string server;  // empty: this is the server
  uint16_t port = 18515;
  bool loopback = false;
  std::string json_path;
  std::string records_path;
  uint16_t wire_version = 0;  // hidden: speak another wire version (tests)
  // perftest's report flags (docs/perftest.md).
  bool report_gbits = false;  // --report_gbits: the console's bandwidth in Gb/s, else MB/s (2^20)
  bool counters = false;      // -W: the device port's counter differences (verbs only)
  bool dump_samples = false;  // -H: every latency sample on the console and in the JSON
  std::string cpu = "auto";   // -c/--cpu: auto, none or a CPU list (launch/cpu_binding.hpp)
};

// Runs the test; returns the process exit code (errors are printed on stderr).
int run(const Options& o, int argc, const char* const* argv);

}  // namespace dlcnet::bench
