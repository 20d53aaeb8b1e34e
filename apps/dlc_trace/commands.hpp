// The dlc-trace subcommands. Each file adds one subcommand to the CLI and runs it; the work
// itself is in the dlcnet_trace library (trace/trace_*.hpp).
#pragma once

#include <CLI/CLI.hpp>

namespace dlcnet::trace::cli {

// Exit codes shared by every subcommand; 2, a bad command line, is apps/cli_main.hpp's.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRejected = 1;  // the trace has errors
inline constexpr int kExitFailure = 3;   // the tool could not do its job (I/O)
inline constexpr int kExitWarnings = 4;  // validate: loads, but with warnings

// The command line, for the context block of JSON reports.
struct Argv {
  int argc = 0;
  char** argv = nullptr;
};

// Each adds its subcommand to `app`; when the subcommand runs, its exit code lands in `*exit`.
void add_validate(CLI::App& app, int* exit, Argv args);
void add_stats(CLI::App& app, int* exit, Argv args);
void add_synth(CLI::App& app, int* exit, Argv args);
void add_convert(CLI::App& app, int* exit, Argv args);
void add_bench_load(CLI::App& app, int* exit, Argv args);

}  // namespace dlcnet::trace::cli
