// --spawn: a try-out of a whole job on this host, for every tool on the job layer. Starts one
// copy of this program per rank with --rank/--world-size/--coordinator 127.0.0.1:PORT (a free port)
// and a fresh job token, waits for all of them, and on the first failure gives the others time to
// notice and name it before killing whoever is left (at once where all of them are stopped:
// frozen by SIGSTOP, they will notice nothing).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace dlcnet {

struct SpawnOptions {
  int world_size = 1;
  std::chrono::seconds limit{3600};  // the whole run; then every rank is killed
  std::chrono::seconds grace{35};    // after the first failure, before killing the rest
  bool quiet = false;
  std::string tool = "dlc-replay";  // how its lines on stderr begin
};

// `args`: this program's arguments without --spawn (argv[1..]). Returns the exit code: 0 when
// every rank exited 0, else the first failure's (128 + signal for a killed rank).
int spawn_ranks(const std::vector<std::string>& args, const SpawnOptions& options);

// argv[1..] without --spawn and --spawn-timeout: what each spawned rank is started with (a
// subcommand, as in "dlc-bench fanin", stays).
std::vector<std::string> spawn_args(int argc, const char* const* argv);

}  // namespace dlcnet
