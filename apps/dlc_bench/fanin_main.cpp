#include "apps/dlc_bench/fanin_main.hpp"

#include <cstdlib>

#include "apps/dlc_bench/fanin_options.hpp"
#include "core/error.hpp"
#include "core/log_line.hpp"
#include "launch/spawn.hpp"

namespace dlcnet::fanin {

int fanin_main(int argc, const char* const* argv) {
  auto parsed = cli::parse_options(argc, argv);
  if (!parsed.options) return parsed.exit_code;
  cli::Options& o = *parsed.options;
  std::string who;
  try {
    if (o.spawn) {
      SpawnOptions so;
      so.world_size = 1 + o.workers + o.run.spec.background;
      so.limit = std::chrono::seconds(o.spawn_timeout_s);
      so.grace = std::chrono::seconds(o.run.spec.timeout_s + 5);
      so.quiet = o.run.quiet;
      so.tool = "dlc-bench fanin";
      return spawn_ranks(spawn_args(argc, argv), so);
    }
    const auto env = resolve_rank_env(o.given, process_env());
    if (!env) {
      throw Error(
          "no rank: give --rank/--world-size/--coordinator, run under mpirun or srun, or start "
          "every rank here with --spawn --workers W");
    }
    o.run.env = *env;
    if (const char* s = std::getenv("DLCNET_RANK_SOURCE"); s && o.run.env.source == "options") {
      o.run.env.source = s;
    }
    if (o.workers > 0 && o.workers != worker_count(env->world_size, o.run.spec)) {
      throw Error("--workers " + std::to_string(o.workers) + " but the world of " +
                  std::to_string(env->world_size) + " ranks with --background " +
                  std::to_string(o.run.spec.background) + " has " +
                  std::to_string(worker_count(env->world_size, o.run.spec)) + " workers");
    }
    who = "rank " + std::to_string(env->rank) + ": ";
    return run_rank(o.run, argc, argv);
  } catch (const std::exception& e) {
    log_line("dlc-bench fanin: " + who + "error: " + e.what());
    return 1;
  }
}

}  // namespace dlcnet::fanin
