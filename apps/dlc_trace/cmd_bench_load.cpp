#include "apps/dlc_trace/commands.hpp"

namespace dlcnet::trace::cli {

void add_bench_load(CLI::App& app, int* exit) {
  (void)app;
  (void)exit;
}

}  // namespace dlcnet::trace::cli
