// dlc-replay: make the network carry a DLC job again, message for message, and report what
// every message experienced. The work is in replay/ (engine, plan, reports; one rank's run is
// replay/replay_pattern.cpp); the start of the run (--spawn or this process's rank) is
// launch/rank_main.hpp.
#include <exception>
#include <iostream>

#include "apps/dlc_replay/options.hpp"
#include "launch/rank_main.hpp"
#include "replay/replay_job.hpp"

int main(int argc, char** argv) {
  using namespace dlcnet;
  using namespace dlcnet::replay;
  auto parsed = replay::cli::parse_options(argc, argv);
  if (!parsed.options) return parsed.exit_code;
  replay::cli::Options& o = *parsed.options;
  if (o.check) {
    // What a launcher (scripts/run-main.sh) asks before it boots a guest or starts ranks.
    try {
      const auto job = open_replay_job(job_source(o.replay));
      std::cout << "dlc-replay: check passed: " << job->summary() << "; nothing was sent\n";
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "dlc-replay: " << e.what() << '\n';
      return 1;
    }
  }
  RankMain m;
  m.spawn = o.job.spawn;
  m.given = o.job.given;
  m.spawn_options.limit = std::chrono::seconds(o.job.spawn_timeout_s);
  m.spawn_options.grace = std::chrono::seconds(o.job.run.timeout_s + 5);
  m.spawn_options.quiet = o.job.run.quiet;
  m.spawn_options.tool = "dlc-replay";
  m.prepare_spawn = [&](SpawnOptions& so) {
    // The job says how many ranks: one per worker and server, or per Chakra file.
    so.world_size = open_replay_job(job_source(o.replay))->world_size();
  };
  return rank_main(m, argc, argv, [&](const RankEnv& env) {
    o.job.run.env = env;
    return run_rank(o.replay, o.job.run, argc, argv);
  });
}
