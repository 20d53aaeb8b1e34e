// dlc-trace: read, check, analyse, generate and convert DLC traces. Parses options only.
#include <iostream>

#include "apps/dlc_trace/commands.hpp"
#include "apps/version/version.hpp"
#include "core/error.hpp"

int main(int argc, char** argv) {
  using namespace dlcnet::trace::cli;
  CLI::App app{
      "dlc-trace: read, check, analyse, generate and convert deep-learning communication "
      "traces (SketchDLC captures and dlcnet's native CSV)"};
  app.require_subcommand(1);
  int exit = kExitOk;
  const Argv args{argc, argv};
  add_validate(app, &exit, args);
  add_stats(app, &exit, args);
  add_synth(app, &exit, args);
  add_convert(app, &exit, args);
  add_bench_load(app, &exit, args);
  dlcnet::add_version_flag(app, "dlc-trace");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help is 0; every bad option is the documented kExitFailure, not CLI11's own codes.
    return app.exit(e) == 0 ? kExitOk : kExitFailure;
  } catch (const dlcnet::Error& e) {
    std::cerr << "dlc-trace: error: " << e.what() << '\n';
    return kExitFailure;
  }
  return exit;
}
