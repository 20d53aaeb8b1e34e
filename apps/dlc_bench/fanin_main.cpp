#include "apps/dlc_bench/fanin_main.hpp"

#include "apps/dlc_bench/fanin_options.hpp"
#include "core/error.hpp"
#include "launch/rank_main.hpp"

namespace dlcnet::fanin {

int fanin_main(int argc, const char* const* argv) {
  auto parsed = cli::parse_options(argc, argv);
  if (!parsed.options) return parsed.exit_code;
  cli::Options& o = *parsed.options;
  RankMain m;
  m.spawn = o.job.spawn;
  m.given = o.job.given;
  m.spawn_hint = "--spawn --workers W";
  m.spawn_options.world_size = 1 + o.workers + o.run.spec.background;
  m.spawn_options.limit = std::chrono::seconds(o.job.spawn_timeout_s);
  m.spawn_options.grace = std::chrono::seconds(o.run.spec.timeout_s + 5);
  m.spawn_options.quiet = o.run.quiet;
  m.spawn_options.tool = "dlc-bench fanin";
  return rank_main(m, argc, argv, [&](const RankEnv& env) {
    if (o.workers > 0 && o.workers != worker_count(env.world_size, o.run.spec)) {
      throw Error("--workers " + std::to_string(o.workers) + " but the world of " +
                  std::to_string(env.world_size) + " ranks with --background " +
                  std::to_string(o.run.spec.background) + " has " +
                  std::to_string(worker_count(env.world_size, o.run.spec)) + " workers");
    }
    o.run.env = env;
    o.run.cpu = o.job.cpu;
    return run_rank(o.run, argc, argv);
  });
}

}  // namespace dlcnet::fanin
