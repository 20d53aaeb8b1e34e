// dlc-trace bench-load JOB...: how fast a job loads and how much memory it takes (for
// bench/trace_load.sh; the measurements are trace/trace_load_bench.hpp). Prints one JSON object.
#include <iostream>
#include <memory>

#include "apps/dlc_trace/commands.hpp"
#include "core/run_context.hpp"
#include "trace/chakra/chakra_files.hpp"
#include "trace/chakra/chakra_load_bench.hpp"
#include "trace/trace_load_bench.hpp"

namespace dlcnet::trace::cli {
namespace {

struct BenchOptions {
  std::vector<std::string> inputs;
  std::string json;
};

int run_bench(const BenchOptions& o, Argv args) {
  const std::unique_ptr<OutputFile> json = open_output("--json", o.json);  // before the work
  if (chakra::is_chakra_input(o.inputs)) {
    const chakra::ChakraLoadBench b = chakra::bench_load(o.inputs);
    nlohmann::json doc = chakra::load_bench_json(b);
    doc["context"] = make_run_context("dlc-trace bench-load", args.argc, args.argv);
    doc["inputs"] = o.inputs;
    std::cout << doc.dump(2) << '\n';
    if (json) write_json_file(*json, doc);
    return b.result.ok() ? kExitOk : kExitRejected;
  }
  const LoadBench b = bench_load(o.inputs);
  nlohmann::json doc = load_bench_json(b);
  doc["context"] = make_run_context("dlc-trace bench-load", args.argc, args.argv);
  doc["inputs"] = o.inputs;
  std::cout << doc.dump(2) << '\n';
  if (json) write_json_file(*json, doc);
  return b.result.ok() ? kExitOk : kExitRejected;
}

}  // namespace

void add_bench_load(CLI::App& app, int* exit, Argv args) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand(
      "bench-load",
      "Time loading a job (records/s, bytes held per record, peak RSS) as JSON; a Chakra job or "
      "native CSV version 2: per node");
  sub->add_option("JOB", o->inputs, "job directory, or node files")->required();
  sub->add_option("--json", o->json, "also write the JSON to this file");
  sub->callback([o, exit, args] { *exit = run_bench(*o, args); });
}

}  // namespace dlcnet::trace::cli
