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
  m.spawn_options.world_size = 1 + o.workers + o.fanin.spec.background;
  m.spawn_options.limit = std::chrono::seconds(o.job.spawn_timeout_s);
  m.spawn_options.grace = std::chrono::seconds(o.fanin.spec.timeout_s + 5);
  m.spawn_options.quiet = o.job.run.quiet;
  m.spawn_options.tool = "dlc-bench fanin";
  return rank_main(m, argc, argv, [&](const RankEnv& env) {
    if (o.workers > 0 && o.workers != worker_count(env.world_size, o.fanin.spec)) {
      throw Error("--workers " + std::to_string(o.workers) + " but the world of " +
                  std::to_string(env.world_size) + " ranks with --background " +
                  std::to_string(o.fanin.spec.background) + " has " +
                  std::to_string(worker_count(env.world_size, o.fanin.spec)) + " workers");
    }
    o.job.run.env = env;
    return run_rank(o.fanin, o.job.run, argc, argv);
  });
}

}  // namespace dlcnet::fanin
