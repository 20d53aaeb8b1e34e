#include "apps/dlc_trace/convert_chakra.hpp"

#include <filesystem>
#include <functional>
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

// A SketchDLC or native job's ranks to `each`, one at a time; false when it was refused.
bool dlc_job_as_chakra(const ChakraConvertOptions& o,
                       const std::function<void(const chakra::Rank&)>& each) {
  const auto loaded = load_or_report(o.inputs, o.force);
  if (!loaded) return false;
#if DLCNET_WITH_GOAL
  replay::PlanOptions popts;
  popts.iterations = o.iterations;
  popts.time_scale = o.time_scale;
  replay::chakra_ranks_from_dlc(loaded->job, popts, each);
  return true;
#else
  (void)each;
  throw Error(
      "convert --to chakra: this dlc-trace was built without replay/ (DLCNET_WITH_REPLAY), whose "
      "plan a SketchDLC or native job is written from");
#endif
}

}  // namespace

int run_convert_to_chakra(const ChakraConvertOptions& o) {
  const std::string name = job_name(o.out);
  chakra::WriteCounts n;
  // The output directory is prepared when the first rank is ready: a job refused until then
  // (a node's file missing, a loop that does not fit) leaves an earlier job there whole.
  bool prepared = false;
  const auto write = [&](const chakra::Rank& r) {
    if (!prepared) prepare_output_dir(o.out, o.overwrite);
    prepared = true;
    chakra::write_chakra_rank(r, o.out, name, n);
  };
  if (chakra::is_chakra_input(o.inputs)) {
    if (o.iterations != 0 || o.time_scale != 1.0) {
      throw dlcnet::cli::UsageError(
          "convert: --iterations and --time-scale shape a SketchDLC or native job; a Chakra job "
          "is written node for node");
    }
    const auto loaded = load_chakra_or_report(o.inputs, o.force);
    if (!loaded) return kExitRejected;
    for (const chakra::Rank& r : loaded->job.ranks) write(r);
  } else if (!dlc_job_as_chakra(o, write)) {
    return kExitRejected;
  }
  std::cout << "wrote " << o.out << " (chakra): " << n.ranks << " ranks (" << name
            << ".<rank>.et), " << n.sends << " sends, " << n.recvs << " recvs, " << n.collectives
            << " collectives, " << n.others << " other nodes, " << n.dependencies
            << " dependencies\n";
  return kExitOk;
}

}  // namespace dlcnet::trace::cli
