// The dlc-compare subcommands. Each file adds one subcommand to the CLI and runs it; the work
// itself is in the dlcnet_model and dlcnet_compare libraries (model/*.hpp, compare/*.hpp).
#pragma once

#include <CLI/CLI.hpp>

namespace dlcnet::compare::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 3;  // the tool could not do its job (I/O, bad input)

// The command line, for the context block of JSON reports.
struct Argv {
  int argc = 0;
  char** argv = nullptr;
};

void add_predict(CLI::App& app, int* exit, Argv args);
void add_model_speed(CLI::App& app, int* exit, Argv args);
void add_calibrate(CLI::App& app, int* exit, Argv args);
void add_predict_job(CLI::App& app, int* exit, Argv args);
void add_queue(CLI::App& app, int* exit, Argv args);
// MEASURED PREDICTED on the main command (no subcommand).
void add_compare(CLI::App& app, int* exit, Argv args);

}  // namespace dlcnet::compare::cli
