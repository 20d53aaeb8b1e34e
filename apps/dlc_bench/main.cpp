// dlc-bench: perftest-style point-to-point latency and bandwidth over verbs or UCX.
#include "apps/dlc_bench/options.hpp"

int main(int argc, char** argv) {
  auto parsed = dlcnet::bench::parse_options(argc, argv);
  if (!parsed.options) return parsed.exit_code;
  return dlcnet::bench::run(*parsed.options, argc, argv);
}
