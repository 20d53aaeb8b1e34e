#include "apps/job_plan_options.hpp"

#include "apps/cli_number.hpp"
#include "core/memory_budget.hpp"
#include "replay/replay_rank_map.hpp"
#include "trace/trace_loader.hpp"

namespace dlcnet::cli {
namespace {

// dlc-replay's own maximum (apps/dlc_replay/options.cpp).
constexpr uint32_t kMaxIterations = 1'000'000;
constexpr double kMaxTimeScale = 1e6;
// What the model holds per trace record looped (a message is two records, its send and its
// receive): measured at about 190 bytes (predict-job of the lenet5 example at 2000 and 8000
// iterations: 390 bytes per message): the message and its names, dependencies, times, the
// predictor's state and the fct.txt record.
constexpr uint64_t kModelBytesPerRecord = 200;

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

}  // namespace

void add_job_plan_options(CLI::App& app, JobPlanOptions& o) {
  app.add_option("--map", o.map_spec, "dlc-replay's --map, if the replay had one");
  app.add_option("--mode", o.mode, "dlc-replay's --mode")
      ->check(CLI::IsMember({"dag", "asap", "timed"}))
      ->capture_default_str();
  app.add_option("--iterations", o.iterations, "dlc-replay's --iterations (0: the trace's)")
      ->check(whole<uint32_t>(0, kMaxIterations));
  app.add_option("--time-scale", o.time_scale, "dlc-replay's --time-scale")
      ->check(real(1e-6, kMaxTimeScale));
}

PlannedJob plan_job_messages(const JobPlanOptions& o) {
  const trace::Job job = trace::read_job(o.inputs);
  const replay::RankMap map = replay::RankMap::make(job, o.map_spec);
  replay::PlanOptions po;
  po.mode = o.mode == "asap" ? replay::Mode::asap
                             : (o.mode == "timed" ? replay::Mode::timed : replay::Mode::dag);
  po.iterations = o.iterations;
  po.time_scale = o.time_scale;
  const replay::Copies copies = replay::Copies::make(job, po.iterations);
  check_model_fits(job, copies, o.iterations);
  return {static_cast<uint32_t>(map.world_size()), replay::job_messages(job, map, po, copies)};
}

}  // namespace dlcnet::cli
