// How every tool answers a bad command line: "TOOL: error: WHAT" on stderr and exit code 2
// (kExitUsage), the convention of getopt tools and Python's argparse (dlc-plot,
// dlc-compare-plot); --help and --version print and exit 0.
#pragma once

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>

namespace dlcnet::cli {

inline constexpr int kExitUsage = 2;

inline void usage_error(const std::string& tool, const std::string& what) {
  std::cerr << tool << ": error: " << what << '\n';
}

// Parses; returns the exit code when the tool should stop now (help, version, a bad line).
inline std::optional<int> parse_command_line(CLI::App& app, const std::string& tool, int argc,
                                             const char* const* argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    usage_error(tool, std::string(e.what()) + " (--help lists the options)");
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace dlcnet::cli
