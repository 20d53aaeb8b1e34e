// perftest's common flags on dlc-bench's lat and bw (docs/perftest.md): those that map onto the
// verbs transport set its QP attributes and the reports, the others are refused with the
// reason, never ignored.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>

#include "patterns/p2p/bench_job.hpp"

namespace dlcnet::bench {

// What is parsed but only checked (refused or accepted as a no-op).
struct PerftestFlags {
  bool cpu_freq = false;       // -F
  bool bidirectional = false;  // -b
  uint32_t qps = 1;            // -q
};

void add_perftest_flags(CLI::App& sub, Options& o, PerftestFlags& f);
// After parsing: throws Error naming the flag that cannot be honoured and why.
void check_perftest_flags(const Options& o, const PerftestFlags& f);

}  // namespace dlcnet::bench
