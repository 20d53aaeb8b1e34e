// The dlc-compare subcommands. Each file adds one subcommand to the CLI and runs it; the work
// itself is in the dlcnet_model and dlcnet_compare libraries (model/*.hpp, compare/*.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <vector>

#include "apps/cli_main.hpp"
#include "core/distinct_files.hpp"

namespace dlcnet::compare::cli {

// Exit codes (apps/cli_main.hpp): 0 done; 2 a bad command line; 3 the tool could not do its job
// (I/O, a bad input file).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = dlcnet::cli::kExitFailure;

// Outputs naming one file, or an input: a bad command line (exit 2), before any work.
inline void check_files(const std::vector<NamedPath>& files) {
  try {
    check_distinct_files(files);
  } catch (const Error& e) {
    throw dlcnet::cli::UsageError(e.what());
  }
}

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
