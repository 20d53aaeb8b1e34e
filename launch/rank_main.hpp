// The start of every N-rank subcommand's main: with --spawn, start every rank on this host;
// otherwise find this process's rank (explicit flags, Open MPI, PMI, Slurm) and run it. Errors
// go to stderr as "<tool>: rank R: error: ..." and give exit code 1.
#pragma once

#include <functional>

#include "launch/rank_env.hpp"
#include "launch/spawn.hpp"

namespace dlcnet {

struct RankMain {
  bool spawn = false;
  SpawnOptions spawn_options;  // its tool names the subcommand ("dlc-bench ring")
  ExplicitRank given;
  // What to say when no rank can be found, after "no rank: give --rank/--world-size/
  // --coordinator, run under mpirun or srun, or start every rank here with ".
  const char* spawn_hint = "--spawn";
  // With --spawn only, before the ranks start: fills in what only the tool's input says (dlc-
  // replay: the world size, from its trace). Its errors are reported as the run's.
  std::function<void(SpawnOptions&)> prepare_spawn;
};

int rank_main(const RankMain& m, int argc, const char* const* argv,
              const std::function<int(const RankEnv&)>& run);

}  // namespace dlcnet
