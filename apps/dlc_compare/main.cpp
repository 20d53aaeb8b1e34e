// dlc-compare: simulator formats and dlcnet's reference model. Parses options only.
#include "apps/dlc_compare/commands.hpp"
#include "apps/version/version.hpp"
#include "core/error.hpp"

int main(int argc, char** argv) {
  using namespace dlcnet::compare::cli;
  CLI::App app{
      "dlc-compare: compare a measured run (the flow map of --export-flows) with a simulator's "
      "fct.txt (dlc-compare MEASURED PREDICTED, docs/compare.md), or a measured queue with a "
      "predicted one (queue); predict a flow.txt with "
      "dlcnet's reference model (predict); calibrate the model from dlc-bench reports"};
  app.require_subcommand(0, 1);
  int exit = kExitOk;
  const Argv args{argc, argv};
  add_predict(app, &exit, args);
  add_model_speed(app, &exit, args);
  add_calibrate(app, &exit, args);
  add_predict_job(app, &exit, args);
  add_queue(app, &exit, args);
  add_compare(app, &exit, args);
  dlcnet::add_version_flag(app, "dlc-compare");
  app.footer(
      "Exit status: 0 done; 2 a bad command line (an unknown option, a value out of range, "
      "outputs naming one file or an input); 3 the tool could not do its job (I/O, a bad input "
      "file, nothing to compare).");
  return dlcnet::cli::parse_and_run(app, argc, argv, "dlc-compare", exit);
}
