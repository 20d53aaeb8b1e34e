#include "apps/job_plan_options.hpp"

#include "apps/cli_main.hpp"
#include "apps/cli_number.hpp"
#include "core/memory_budget.hpp"
#include "replay/replay_rank_map.hpp"
#include "trace/chakra/chakra_files.hpp"
#include "trace/trace_loader.hpp"

namespace dlcnet::cli {
namespace {

// dlc-replay's own maximum (apps/dlc_replay/options.cpp).
constexpr uint32_t kMaxIterations = 1'000'000;
constexpr double kMaxTimeScale = 1e6;

// The messages the loop of `copies` makes, checked against this host's memory before they are.
void check_model_fits(const trace::Job& job, const replay::Copies& copies, uint32_t iterations) {
  uint64_t records = 0;
  for (const trace::Node& n : job.nodes) records += n.records.size();
  const uint64_t looped = records * copies.count;
  check_fits_in_memory(looped, kModelBytesPerRecord,
                       "--iterations " + std::to_string(iterations) + ": predicting about " +
                           std::to_string(looped / 2) + " messages",
                       "ask for fewer with --iterations");
}

// A SketchDLC or native job takes none of a Chakra job's options.
void refuse_chakra_options(const ChakraCollectiveText& c) {
  const ChakraCollectiveText none;
  const char* option = c.coll_size != none.coll_size       ? "--coll-size"
                       : c.root != none.root               ? "--root"
                       : c.comm_groups != none.comm_groups ? "--comm-groups"
                                                           : nullptr;
  if (option != nullptr) {
    throw UsageError(std::string(option) +
                     ": reads a Chakra job's collectives; this job is SketchDLC or native (a "
                     "Chakra job is a directory of <name>.<rank>.et files)");
  }
}

}  // namespace

void add_job_plan_options(CLI::App& app, JobPlanOptions& o) {
  app.add_option("--map", o.map_spec,
                 "dlc-replay's --map, if the replay had one (not for Chakra jobs)");
  app.add_option("--mode", o.mode, "dlc-replay's --mode")
      ->check(CLI::IsMember({"dag", "asap", "timed"}))
      ->capture_default_str();
  app.add_option("--iterations", o.iterations,
                 "dlc-replay's --iterations (0: the trace's; not for Chakra jobs)")
      ->check(whole<uint32_t>(0, kMaxIterations));
  app.add_option("--time-scale", o.time_scale, "dlc-replay's --time-scale")
      ->check(real(1e-6, kMaxTimeScale));
  add_chakra_collective_options(app, o.collectives);
}

PlannedJob plan_job_messages(const JobPlanOptions& o) {
  // The plan's part size is the replay's default: it splits a message into transport
  // operations, which neither predictor sees (a message is a replayed send).
  replay::PlanOptions po;
  po.mode = o.mode == "asap" ? replay::Mode::asap
                             : (o.mode == "timed" ? replay::Mode::timed : replay::Mode::dag);
  po.iterations = o.iterations;
  po.time_scale = o.time_scale;
  if (trace::chakra::is_chakra_input(o.inputs)) return plan_chakra_job_messages(o, po);
  refuse_chakra_options(o.collectives);
  const trace::Job job = trace::read_job(o.inputs);
  const replay::RankMap map = replay::RankMap::make(job, o.map_spec);
  const replay::Copies copies = replay::Copies::make(job, po.iterations);
  check_model_fits(job, copies, o.iterations);
  return {static_cast<uint32_t>(map.world_size()), replay::job_messages(job, map, po, copies)};
}

}  // namespace dlcnet::cli
