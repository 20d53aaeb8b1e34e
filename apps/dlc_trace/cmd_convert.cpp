// dlc-trace convert: SketchDLC capture <-> dlcnet native CSV (docs/native-trace-format.md), a
// Chakra job to native CSV version 2, and out to GOAL text for ATLAHS's simulators
// (replay/goal_writer.hpp) and to Chakra ET files (convert_chakra.hpp).
#include <iostream>
#include <memory>

#include "apps/dlc_trace/chakra_commands.hpp"
#include "apps/dlc_trace/commands.hpp"
#include "apps/dlc_trace/convert_chakra.hpp"
#include "apps/dlc_trace/load_or_report.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#if DLCNET_WITH_GOAL
#include "replay/goal_writer.hpp"
#endif
#include "trace/chakra/chakra_files.hpp"
#include "trace/trace_native.hpp"
#include "trace/trace_output_dir.hpp"
#include "trace/trace_sketch_writer.hpp"

namespace dlcnet::trace::cli {
namespace {

struct ConvertOptions {
  std::vector<std::string> inputs;
  std::string out;
  std::string to;
  bool force = false;
  bool overwrite = false;
  uint32_t iterations = 0;  // goal: training iterations (0: every one the trace holds)
  double time_scale = 1.0;  // goal: multiplies think times
};

void write_goal_file(const Job& job, const ConvertOptions& o) {
#if DLCNET_WITH_GOAL
  const replay::RankMap map = replay::RankMap::make(job, "");
  replay::PlanOptions popts;
  popts.iterations = o.iterations;
  popts.time_scale = o.time_scale;
  const replay::Copies copies = replay::Copies::make(job, popts.iterations);
  OutputFile out("-o", o.out);
  replay::GoalCounts n;
  write_stream(out, [&](std::ostream& f) { n = replay::write_goal(f, job, map, popts, copies); });
  std::cout << "wrote " << o.out << " (goal): " << map.world_size() << " ranks, " << n.sends
            << " sends, " << n.recvs << " recvs, " << n.calcs << " calcs, " << n.requires_
            << " dependencies\n";
#else
  (void)job;
  (void)o;
  throw Error("convert --to goal: this dlc-trace was built without replay/ (DLCNET_WITH_REPLAY)");
#endif
}

int run_convert(const ConvertOptions& o) {
  if (o.to == "chakra") {
    if (!(o.time_scale > 0) || o.time_scale > 1e6) {
      throw Error("convert: --time-scale must be above 0 and at most 1e6");
    }
    return run_convert_to_chakra(
        {o.inputs, o.out, o.force, o.overwrite, o.iterations, o.time_scale});
  }
  if (chakra::is_chakra_input(o.inputs)) {
    if (o.iterations != 0 || o.time_scale != 1.0) {
      throw Error("convert: --iterations and --time-scale do not apply to a Chakra job");
    }
    return run_chakra_convert(o.inputs, o.out, o.to, o.force);
  }
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
  if (to != "native" && to != "sketchdlc" && to != "goal" && to != "chakra") {
    throw Error("convert: --to must be 'native', 'sketchdlc', 'goal' or 'chakra', not '" + to +
                "'");
  }
  if (to != "goal" && to != "chakra" && (o.iterations != 0 || o.time_scale != 1.0)) {
    throw Error(
        "convert: --iterations and --time-scale shape a GOAL schedule or a Chakra job: give --to "
        "goal or --to chakra");
  }
  if (!(o.time_scale > 0) || o.time_scale > 1e6) {
    throw Error("convert: --time-scale must be above 0 and at most 1e6");
  }
  const auto loaded = load_or_report(o.inputs, o.force);
  if (!loaded) return kExitRejected;
  const Job& job = loaded->job;
  if (to == "goal") {
    write_goal_file(job, o);
    return kExitOk;
  }
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
      "and dlcnet's native CSV (one file), a Chakra job to native CSV (version 2), or write it "
      "as a GOAL schedule (ATLAHS's LogGOPSim "
      "and htsim: the replay's messages, dependencies and think times) or as Chakra ET files "
      "(ASTRA-sim: one <name>.<rank>.et per rank, from a SketchDLC, native or Chakra job)");
  sub->add_option("JOB", o->inputs, "job directory, or node files")->required();
  sub->add_option("-o,--out", o->out,
                  "output: a .csv file for native, a directory for sketchdlc and chakra, a file "
                  "for goal")
      ->required();
  sub->add_option("--to", o->to,
                  "native, sketchdlc, goal or chakra (default: the other trace format; a Chakra "
                  "job: native, a version 2 CSV file)");
  sub->add_option("--iterations", o->iterations,
                  "goal, chakra: training iterations, looping the job as dlc-replay does (0: the "
                  "trace's)");
  sub->add_option("--time-scale", o->time_scale, "goal, chakra: multiply the think times by this");
  sub->add_flag("--force", o->force, "convert even when the trace has errors");
  sub->add_flag("--overwrite", o->overwrite,
                "replace the job in a non-empty output directory (sketchdlc, chakra)");
  sub->callback([o, exit] { *exit = run_convert(*o); });
}

}  // namespace dlcnet::trace::cli
