// dlc-trace convert: SketchDLC capture <-> dlcnet native CSV (docs/native-trace-format.md).
#include <iostream>
#include <memory>

#include "apps/dlc_trace/commands.hpp"
#include "apps/dlc_trace/load_or_report.hpp"
#include "apps/dlc_trace/output_dir.hpp"
#include "core/error.hpp"
#include "trace/trace_native.hpp"
#include "trace/trace_sketch_writer.hpp"

namespace dlcnet::trace::cli {
namespace {

struct ConvertOptions {
  std::vector<std::string> inputs;
  std::string out;
  std::string to;
  bool force = false;
  bool overwrite = false;
};

int run_convert(const ConvertOptions& o) {
  std::string to = o.to;
  if (to.empty()) {
    // The other format than the input's.
    Diagnostics scratch;
    bool native = false;
    for (const JobFile& f : discover_job_files(o.inputs, scratch)) {
      native = native || f.kind == FileKind::kNative;
    }
    to = native ? "sketchdlc" : "native";
  }
  if (to != "native" && to != "sketchdlc") {
    throw Error("convert: --to must be 'native' or 'sketchdlc', not '" + to + "'");
  }
  const auto loaded = load_or_report(o.inputs, o.force);
  if (!loaded) return kExitRejected;
  const Job& job = loaded->job;
  if (to == "native") {
    write_native(job, o.out);
  } else {
    prepare_output_dir(o.out, o.overwrite);
    write_sketch_job(job, o.out);
  }
  std::cout << "wrote " << o.out << " (" << to << "): " << job.record_count() << " records\n";
  return kExitOk;
}

}  // namespace

void add_convert(CLI::App& app, int* exit, Argv args) {
  (void)args;
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* sub = app.add_subcommand(
      "convert",
      "Convert a job between the SketchDLC capture format (a directory, one folder per node) "
      "and dlcnet's native CSV (one file)");
  sub->add_option("JOB", o->inputs, "job directory, or node files")->required();
  sub->add_option("-o,--out", o->out, "output: a .csv file for native, a directory for sketchdlc")
      ->required();
  sub->add_option("--to", o->to, "native or sketchdlc (default: the other format)");
  sub->add_flag("--force", o->force, "convert even when the trace has errors");
  sub->add_flag("--overwrite", o->overwrite,
                "replace the job in a non-empty output directory (sketchdlc)");
  sub->callback([o, exit] { *exit = run_convert(*o); });
}

}  // namespace dlcnet::trace::cli
