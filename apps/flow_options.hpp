// The options that take a run's messages to a simulator, the same in every tool that runs
// ranks (dlc-bench fanin and ring, dlc-replay; docs/compare.md): --export-flows, and --fct with
// the --calibration it needs.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace dlcnet::cli {

inline void add_export_flows_option(CLI::App& app, std::string& path) {
  app.add_option("--export-flows", path,
                 "write every message as HPCC's flow.txt here (measured post times) and its flow "
                 "map at FILE.map, for a simulator and dlc-compare (rank 0; docs/compare.md)");
}

inline void add_fct_options(CLI::App& app, std::string& fct_path, std::string& calibration) {
  CLI::Option* fct = app.add_option(
      "--fct", fct_path,
      "write every message as HPCC's fct.txt, every field in HPCC's meaning (rank 0; needs "
      "--calibration)");
  fct->needs(app.add_option("--calibration", calibration,
                            "--fct: the fabric's base latency and rate (dlc-compare calibrate; "
                            "docs/compare.md), for HPCC's fct and standalone fct"));
}

}  // namespace dlcnet::cli
