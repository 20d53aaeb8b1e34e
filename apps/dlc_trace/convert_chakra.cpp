#include "apps/dlc_trace/convert_chakra.hpp"

#include <filesystem>
#include <iostream>

#include "apps/cli_main.hpp"
#include "apps/dlc_trace/chakra_commands.hpp"
#include "apps/dlc_trace/load_or_report.hpp"
#include "core/error.hpp"
#if DLCNET_WITH_GOAL
#include "replay/chakra_from_dlc.hpp"
#endif
#include "trace/chakra/chakra_files.hpp"
#include "trace/chakra/chakra_writer.hpp"
#include "trace/trace_output_dir.hpp"

namespace dlcnet::trace::cli {
namespace {

// The files' <name>: the output directory's own name ("out/lenet/" -> "lenet").
std::string job_name(const std::string& dir) {
  std::filesystem::path p = std::filesystem::absolute(dir).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  const std::string name = p.filename().string();
  return name.empty() ? "job" : name;
}

std::optional<chakra::Job> dlc_job_as_chakra(const ChakraConvertOptions& o) {
  const auto loaded = load_or_report(o.inputs, o.force);
  if (!loaded) return std::nullopt;
#if DLCNET_WITH_GOAL
  replay::PlanOptions popts;
  popts.iterations = o.iterations;
  popts.time_scale = o.time_scale;
  return replay::chakra_from_dlc(loaded->job, popts);
#else
  throw Error(
      "convert --to chakra: this dlc-trace was built without replay/ (DLCNET_WITH_REPLAY), whose "
      "plan a SketchDLC or native job is written from");
#endif
}

}  // namespace

int run_convert_to_chakra(const ChakraConvertOptions& o) {
  std::optional<chakra::Job> job;
  if (chakra::is_chakra_input(o.inputs)) {
    if (o.iterations != 0 || o.time_scale != 1.0) {
      throw dlcnet::cli::UsageError(
          "convert: --iterations and --time-scale shape a SketchDLC or native job; a Chakra job "
          "is written node for node");
    }
    auto loaded = load_chakra_or_report(o.inputs, o.force);
    if (loaded) job = std::move(loaded->job);
  } else {
    job = dlc_job_as_chakra(o);
  }
  if (!job) return kExitRejected;
  prepare_output_dir(o.out, o.overwrite);
  const std::string name = job_name(o.out);
  const chakra::WriteCounts n = chakra::write_chakra_job(*job, o.out, name);
  std::cout << "wrote " << o.out << " (chakra): " << n.ranks << " ranks (" << name
            << ".<rank>.et), " << n.sends << " sends, " << n.recvs << " recvs, " << n.collectives
            << " collectives, " << n.others << " other nodes, " << n.dependencies
            << " dependencies\n";
  return kExitOk;
}

}  // namespace dlcnet::trace::cli
