// The end of dlc-trace's and dlc-compare's main: parse the command line (the subcommand runs
// in its callback) and turn what went wrong into one exit code and one message prefix:
//   0  done, or --help / --version;
//   2  a bad command line: CLI11's parse errors (an unknown option, a value its check refuses,
//      a missing argument) and UsageError (options that cannot go together);
//   3  the tool could not do its job (dlcnet::Error: I/O, a bad input file; also bad_alloc);
//   else the code the subcommand set in `exit` (dlc-trace: 1 rejected trace, 4 warnings).
// Every error is printed as "<tool>: error: <what>", CLI11's messages too.
#pragma once

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "apps/cli_parse.hpp"
#include "core/error.hpp"

namespace dlcnet::cli {

inline constexpr int kExitFailure = 3;

// A command line whose options cannot go together; exit 2 like CLI11's own errors.
struct UsageError : CLI::ValidationError {
  explicit UsageError(const std::string& what) : CLI::ValidationError(what) {}
};

inline int parse_and_run(CLI::App& app, int argc, char** argv, const std::string& tool,
                         const int& exit) {
  try {
    if (auto rc = parse_command_line(app, tool, argc, argv)) return *rc;
  } catch (const Error& e) {
    std::cerr << tool << ": error: " << e.what() << '\n';
    return kExitFailure;
  } catch (const std::bad_alloc&) {
    std::cerr << tool << ": error: out of memory\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << tool << ": error: " << e.what() << '\n';
    return kExitFailure;
  }
  return exit;
}

}  // namespace dlcnet::cli
