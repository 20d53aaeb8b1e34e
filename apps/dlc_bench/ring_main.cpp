#include "apps/dlc_bench/ring_main.hpp"

#include "apps/dlc_bench/ring_options.hpp"
#include "core/error.hpp"
#include "launch/rank_main.hpp"

namespace dlcnet::ring {

int ring_main(int argc, const char* const* argv) {
  auto parsed = cli::parse_options(argc, argv);
  if (!parsed.options) return parsed.exit_code;
  cli::Options& o = *parsed.options;
  RankMain m;
  m.spawn = o.job.spawn;
  m.given = o.job.given;
  m.spawn_hint = "--spawn --ranks N";
  m.spawn_options.world_size = o.ranks;
  m.spawn_options.limit = std::chrono::seconds(o.job.spawn_timeout_s);
  m.spawn_options.grace = std::chrono::seconds(o.spec.timeout_s + 5);
  m.spawn_options.quiet = o.job.run.quiet;
  m.spawn_options.tool = "dlc-bench ring";
  return rank_main(m, argc, argv, [&](const RankEnv& env) {
    if (o.ranks > 0 && o.ranks != env.world_size) {
      throw Error("--ranks " + std::to_string(o.ranks) + " but the world has " +
                  std::to_string(env.world_size) + " ranks");
    }
    o.job.run.env = env;
    return run_rank(o.spec, o.job.run, argc, argv);
  });
}

}  // namespace dlcnet::ring
