#include "apps/dlc_trace/commands.hpp"

namespace dlcnet::trace::cli {

void add_synth(CLI::App& app, int* exit) {
  (void)app;
  (void)exit;
}

}  // namespace dlcnet::trace::cli
