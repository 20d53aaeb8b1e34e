// dlc-trace stats JOB...: per node and iteration, messages and bytes by operation, message
// sizes, and the SketchDLC paper's overheads. Console tables, and JSON with --json.
#include <iostream>
#include <memory>

#include "apps/chakra_options.hpp"
#include "apps/cli_number.hpp"
#include "apps/dlc_trace/chakra_commands.hpp"
#include "apps/dlc_trace/commands.hpp"
#include "apps/dlc_trace/load_or_report.hpp"
#include "core/run_context.hpp"
#include "trace/chakra/chakra_files.hpp"
#include "trace/trace_stats.hpp"
#include "trace/trace_stats_report.hpp"

namespace dlcnet::trace::cli {
namespace {

struct StatsOptions {
  std::vector<std::string> inputs;
  std::string json;
  bool per_iteration = false;
  size_t keys = 20;
  bool force = false;
  bool quiet = false;
  dlcnet::cli::ChakraCollectiveText collectives;
};

int run_stats(const StatsOptions& o, Argv args) {
  if (chakra::is_chakra_input(o.inputs)) {
    return run_chakra_stats({o.inputs, o.json, o.force, o.quiet, o.collectives.options()}, args);
  }
  // Opened before the work (core/output_file.hpp); '-' is standard output.
  const std::unique_ptr<OutputFile> json = open_output("--json", o.json == "-" ? "" : o.json);
  const auto loaded = load_or_report(o.inputs, o.force);
  if (!loaded) return kExitRejected;
  const JobStats stats = compute_stats(loaded->job);
  if (!o.quiet) print_stats(std::cout, stats, {o.per_iteration, o.keys});
  if (!o.json.empty()) {
    nlohmann::json doc;
    doc["context"] = make_run_context("dlc-trace stats", args.argc, args.argv);
    doc["inputs"] = o.inputs;
    doc["diagnostics"] = diagnostics_to_json(loaded->diagnostics);
    doc.update(stats_to_json(stats));
    if (o.json == "-") {
      std::cout << doc.dump(2) << '\n';
    } else {
      write_json_file(*json, doc);
    }
  }
  return loaded->ok() ? kExitOk : kExitRejected;
}

}  // namespace

void add_stats(CLI::App& app, int* exit, Argv args) {
  auto o = std::make_shared<StatsOptions>();
  CLI::App* sub = app.add_subcommand(
      "stats",
      "Per node and iteration: messages and bytes by operation, message sizes, computation "
      "time, overlap ratio, wait, synchronisation and update overheads, round-trip times per "
      "key (SketchDLC section 4.2/5.3)");
  sub->add_option("JOB", o->inputs, "job directory, or node files")->required();
  sub->add_option("--json", o->json,
                  "also write the statistics as JSON to this file ('-': "
                  "standard output)");
  sub->add_flag("--per-iteration", o->per_iteration,
                "one row per node and iteration instead of the means");
  sub->add_option("--keys", o->keys, "rows of the per-key table (0: all)")
      ->check(dlcnet::cli::whole<size_t>(0))
      ->capture_default_str();
  sub->add_flag("--force", o->force, "compute statistics even when the trace has errors");
  sub->add_flag("-q,--quiet", o->quiet, "no console tables (with --json)");
  dlcnet::cli::add_chakra_collective_options(*sub, o->collectives);
  sub->callback([o, exit, args] { *exit = run_stats(*o, args); });
}

}  // namespace dlcnet::trace::cli
