// dlc-compare: simulator formats and dlcnet's reference model. Parses options only.
#include <iostream>

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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const dlcnet::Error& e) {
    std::cerr << "dlc-compare: error: " << e.what() << '\n';
    return kExitFailure;
  }
  return exit;
}
