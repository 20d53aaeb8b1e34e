// dlc-trace validate JOB...: every problem with file:line; exit 0 only when clean.
#include <iostream>
#include <memory>

#include "apps/chakra_options.hpp"
#include "apps/cli_number.hpp"
#include "apps/dlc_trace/chakra_commands.hpp"
#include "apps/dlc_trace/commands.hpp"
#include "trace/chakra/chakra_files.hpp"
#include "trace/trace_loader.hpp"

namespace dlcnet::trace::cli {
namespace {

struct ValidateOptions {
  std::vector<std::string> inputs;
  size_t keep = 0;
  bool quiet = false;
  std::string comm_groups;  // Chakra
};

int run_validate(const ValidateOptions& o) {
  if (chakra::is_chakra_input(o.inputs)) {
    return run_chakra_validate(o.inputs, o.keep, o.quiet, o.comm_groups);
  }
  LoadOptions lo;
  lo.keep_per_problem = o.keep == 0 ? SIZE_MAX : o.keep;
  const LoadResult res = load_job(o.inputs, lo);
  const Diagnostics& d = res.diagnostics;
  if (!o.quiet || d.errors() + d.warnings() != 0) std::cout << d.report() << d.explain();
  if (d.errors() != 0) return kExitRejected;
  if (d.warnings() != 0) return kExitWarnings;
  if (!o.quiet) {
    const Job& job = res.job;
    size_t present = 0;
    for (const Node& n : job.nodes) present += n.present ? 1 : 0;
    std::cout << "clean: " << present << " node files, " << job.record_count() << " records, "
              << job.messages.size() << " messages (" << job.num_workers << " workers, "
              << job.num_servers << " servers)\n";
  }
  return kExitOk;
}

}  // namespace

void add_validate(CLI::App& app, int* exit, Argv args) {
  (void)args;
  auto o = std::make_shared<ValidateOptions>();
  CLI::App* sub = app.add_subcommand(
      "validate",
      "Check a job: report every problem with file:line. Exit 0 clean, 1 errors (the job is "
      "rejected), 4 warnings only (2: a bad command line)");
  sub->add_option(
         "JOB", o->inputs,
         "job directory, or node files (SketchDLC, native CSV, or Chakra <name>.<rank>.et)")
      ->required();
  sub->add_option("--max-per-kind", o->keep,
                  "print at most N problems of each kind (0: all; counts are always exact)")
      ->check(dlcnet::cli::whole<size_t>(0));
  sub->add_flag("-q,--quiet", o->quiet, "print nothing for a clean job");
  dlcnet::cli::add_comm_groups_option(*sub, o->comm_groups);
  sub->callback([o, exit] { *exit = run_validate(*o); });
}

}  // namespace dlcnet::trace::cli
