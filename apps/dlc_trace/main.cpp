// dlc-trace: read, check, analyse, generate and convert DLC traces. Parses options only.
#include "apps/cli_main.hpp"
#include "apps/dlc_trace/commands.hpp"
#include "apps/version/version.hpp"
#include "core/error.hpp"

int main(int argc, char** argv) {
  using namespace dlcnet::trace::cli;
  CLI::App app{
      "dlc-trace: read, check, analyse, generate and convert deep-learning communication "
      "traces (SketchDLC captures, dlcnet's native CSV, and Chakra execution traces)"};
  app.require_subcommand(1);
  int exit = kExitOk;
  const Argv args{argc, argv};
  add_validate(app, &exit, args);
  add_stats(app, &exit, args);
  add_synth(app, &exit, args);
  add_convert(app, &exit, args);
  add_bench_load(app, &exit, args);
  dlcnet::add_version_flag(app, "dlc-trace");
  app.footer(
      "Exit status: 0 clean; 1 the trace has errors (validate, stats, convert refuse it unless "
      "--force); 2 a bad command line (an unknown option, a value out of range); 3 the tool "
      "could not do its job (I/O); 4 validate found warnings only.");
  return dlcnet::cli::parse_and_run(app, argc, argv, "dlc-trace", exit);
}
