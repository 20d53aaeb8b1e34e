// Loading a job for a subcommand that needs a usable one (stats, convert).
#pragma once

#include <iostream>
#include <optional>
#include <span>
#include <string>

#include "trace/trace_loader.hpp"

namespace dlcnet::trace::cli {

// Loads the job; on errors prints them to stderr and returns nullopt unless `force`. Warnings
// are summarised on stderr in one line.
inline std::optional<LoadResult> load_or_report(std::span<const std::string> inputs, bool force) {
  LoadOptions lo;
  lo.keep_per_problem = 20;
  LoadResult res = load_job(inputs, lo);
  const Diagnostics& d = res.diagnostics;
  if (d.errors() != 0) {
    std::cerr << d.report();
    if (!force) {
      std::cerr << "dlc-trace: the trace has errors (dlc-trace validate lists them all)\n";
      return std::nullopt;
    }
  } else if (d.warnings() != 0) {
    std::cerr << "dlc-trace: " << d.warnings()
              << " warnings while loading (dlc-trace validate lists them)\n";
  }
  return res;
}

}  // namespace dlcnet::trace::cli
