// dlc-replay: make the network carry a DLC job again, message for message, and report what
// every message experienced. The work is in replay/ (engine, plan, reports) and run.cpp.
#include <cstdlib>
#include <iostream>

#include "apps/dlc_replay/options.hpp"
#include "core/error.hpp"
#include "core/log_line.hpp"
#include "launch/spawn.hpp"
#include "replay/replay_rank_map.hpp"
#include "trace/trace_loader.hpp"

namespace {

using namespace dlcnet;
using namespace dlcnet::replay;

int spawn(const cli::Options& o, int argc, const char* const* argv) {
  // The job says how many ranks: one per worker and server.
  const trace::Job job = trace::read_job(o.run.inputs);
  SpawnOptions so;
  so.world_size = RankMap::make(job, o.run.map_spec).world_size();
  so.limit = std::chrono::seconds(o.spawn_timeout_s);
  so.grace = std::chrono::seconds(o.run.timeout_s + 5);
  so.quiet = o.run.quiet;
  return spawn_ranks(spawn_args(argc, argv), so);
}

}  // namespace

int main(int argc, char** argv) {
  auto parsed = cli::parse_options(argc, argv);
  if (!parsed.options) return parsed.exit_code;
  cli::Options& o = *parsed.options;
  std::string who = "";
  try {
    if (o.spawn) return spawn(o, argc, argv);
    const auto env = resolve_rank_env(o.given, process_env());
    if (!env) {
      throw Error(
          "no rank: give --rank/--world-size/--coordinator, run under mpirun or srun, "
          "or start every rank here with --spawn");
    }
    RunOptions& r = o.run;
    r.env = *env;
    if (const char* s = std::getenv("DLCNET_RANK_SOURCE"); s && r.env.source == "options") {
      r.env.source = s;  // --spawn says who chose the ranks
    }
    who = "rank " + std::to_string(r.env.rank) + ": ";
    return run_rank(r, argc, argv);
  } catch (const std::exception& e) {
    log_line("dlc-replay: " + who + "error: " + e.what());
    return 1;
  }
}
