#include "launch/rank_main.hpp"

#include <cstdlib>
#include <exception>
#include <string>

#include "core/error.hpp"
#include "core/log_line.hpp"

namespace dlcnet {

int rank_main(const RankMain& m, int argc, const char* const* argv,
              const std::function<int(const RankEnv&)>& run) {
  const std::string& tool = m.spawn_options.tool;
  std::string who;
  try {
    if (m.spawn) {
      SpawnOptions so = m.spawn_options;
      if (m.prepare_spawn) m.prepare_spawn(so);
      return spawn_ranks(spawn_args(argc, argv), so);
    }
    auto env = resolve_rank_env(m.given, process_env());
    if (!env) {
      throw Error(
          std::string("no rank: give --rank/--world-size/--coordinator, run under mpirun or "
                      "srun, or start every rank here with ") +
          m.spawn_hint);
    }
    if (const char* s = std::getenv("DLCNET_RANK_SOURCE"); s && env->source == "options") {
      env->source = s;
    }
    who = "rank " + std::to_string(env->rank) + ": ";
    if (auto note = token_note(*env)) log_line(tool + ": " + who + "note: " + *note);
    return run(*env);
  } catch (const std::exception& e) {
    log_line(tool + ": " + who + "error: " + e.what());
    return 1;
  }
}

}  // namespace dlcnet
