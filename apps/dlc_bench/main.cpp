// dlc-bench: perftest-style point-to-point latency and bandwidth over verbs or UCX (lat, bw),
// and the N-rank patterns (fanin, ring).
#include <cstring>

#include "apps/dlc_bench/fanin_main.hpp"
#include "apps/dlc_bench/options.hpp"
#include "apps/dlc_bench/ring_main.hpp"

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "fanin") == 0) return dlcnet::fanin::fanin_main(argc, argv);
  if (argc > 1 && std::strcmp(argv[1], "ring") == 0) return dlcnet::ring::ring_main(argc, argv);
  auto parsed = dlcnet::bench::parse_options(argc, argv);
  if (!parsed.options) return parsed.exit_code;
  return dlcnet::bench::run(*parsed.options, argc, argv);
}
