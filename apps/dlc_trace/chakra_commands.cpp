#include "apps/dlc_trace/chakra_commands.hpp"

#include <iostream>
#include <memory>

#include "apps/cli_main.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "core/run_context.hpp"
#include "trace/chakra/chakra_groups.hpp"
#include "trace/chakra/chakra_loader.hpp"
#include "trace/chakra/chakra_native.hpp"
#include "trace/chakra/chakra_stats_report.hpp"
#include "trace/trace_stats_report.hpp"

namespace dlcnet::trace::cli {

int run_chakra_validate(const std::vector<std::string>& inputs, size_t keep, bool quiet,
                        const std::string& comm_groups) {
  const chakra::LoadResult res = chakra::load_job(inputs, keep == 0 ? SIZE_MAX : keep, comm_groups);
  const Diagnostics& d = res.diagnostics;
  if (!quiet || d.errors() + d.warnings() != 0) std::cout << d.report() << d.explain();
  if (d.errors() != 0) return kExitRejected;
  if (d.warnings() != 0) return kExitWarnings;
  if (!quiet) {
    size_t nodes = 0;
    for (const chakra::Rank& r : res.job.ranks) nodes += r.nodes.size();
    std::cout << "clean: Chakra job, " << res.job.world << " ranks, " << nodes << " nodes\n";
  }
  return kExitOk;
}

std::optional<chakra::LoadResult> load_chakra_or_report(std::span<const std::string> inputs,
                                                        bool force,
                                                        const std::string& comm_groups) {
  chakra::LoadResult res = chakra::load_job(inputs, 20, comm_groups);
  const Diagnostics& d = res.diagnostics;
  if (d.errors() != 0) {
    std::cerr << d.report();
    if (!force) {
      std::cerr << "dlc-trace: the trace has errors (dlc-trace validate lists them all)\n";
      return std::nullopt;
    }
  }
  return res;
}

int run_chakra_stats(const ChakraStatsOptions& o, Argv args) {
  const std::unique_ptr<OutputFile> json = open_output("--json", o.json == "-" ? "" : o.json);
  const std::optional<chakra::LoadResult> loaded =
      load_chakra_or_report(o.inputs, o.force, o.collectives.comm_groups);
  if (!loaded) return kExitRejected;
  const chakra::LoadResult& res = *loaded;
  const Diagnostics& d = res.diagnostics;
  if (res.job.world > 0 && o.collectives.root >= res.job.world) {
    throw dlcnet::cli::UsageError("--root " + std::to_string(o.collectives.root) +
                                  ": the job has ranks 0 to " + std::to_string(res.job.world - 1));
  }
  const int32_t smallest = chakra::smallest_rooted_group(res.job);
  if (o.collectives.root >= smallest) {
    throw dlcnet::cli::UsageError("--root " + std::to_string(o.collectives.root) +
                                  ": a root is a rank of its collective's group, and the "
                                  "smallest group a rooted collective runs in has " +
                                  std::to_string(smallest) + " ranks");
  }
  const chakra::JobStats stats = chakra::compute_stats(res.job, o.collectives);
  if (!o.quiet) chakra::print_stats(std::cout, stats);
  if (!o.json.empty()) {
    nlohmann::json doc;
    doc["context"] = make_run_context("dlc-trace stats", args.argc, args.argv);
    doc["inputs"] = o.inputs;
    doc["diagnostics"] = diagnostics_to_json(d);
    doc.update(chakra::stats_to_json(stats));
    if (o.json == "-") {
      std::cout << doc.dump(2) << '\n';
    } else {
      write_json_file(*json, doc);
    }
  }
  return res.ok() ? kExitOk : kExitRejected;
}

int run_chakra_convert(const std::vector<std::string>& inputs, const std::string& out,
                       const std::string& to, bool force) {
  if (!to.empty() && to != "native") {
    throw Error(
        "convert: a Chakra job converts --to native (a version 2 CSV file) or --to "
        "chakra, not '" +
        to + "'");
  }
  const std::optional<chakra::LoadResult> loaded = load_chakra_or_report(inputs, force);
  if (!loaded) return kExitRejected;
  chakra::write_native_job(loaded->job, out);
  size_t nodes = 0;
  for (const chakra::Rank& r : loaded->job.ranks) nodes += r.nodes.size();
  std::cout << "wrote " << out << " (native, version 2): " << loaded->job.world << " ranks, "
            << nodes << " nodes\n";
  return loaded->ok() ? kExitOk : kExitRejected;
}

}  // namespace dlcnet::trace::cli
