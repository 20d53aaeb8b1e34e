// dlc-compare predict-job JOB --like RUN.map --calibration C.json --out fct.txt: the reference
// model's prediction of a job run the way dlc-replay runs it, from its dependencies and think
// times (replay/job_messages.hpp), written as HPCC's fct.txt named after a replay's flow map
// (its sports), for `dlc-compare RUN.map fct.txt --free-starts`. A SketchDLC or native job here,
// a Chakra job in predict_job_chakra.cpp: the inputs decide, as for dlc-replay.
#include <iostream>
#include <memory>

#include "apps/cli_number.hpp"
#include "apps/dlc_compare/commands.hpp"
#include "apps/dlc_compare/predict_job.hpp"
#include "compare/named_fct.hpp"
#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "core/output_file.hpp"
#include "flows/flow_map.hpp"
#include "flows/hpcc_fct.hpp"
#include "model/predict.hpp"
#include "replay/job_messages.hpp"
#include "replay/replay_rank_map.hpp"
#include "trace/chakra/chakra_files.hpp"
#include "trace/trace_loader.hpp"

namespace dlcnet::compare::cli {
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

// A SketchDLC or native job: read, mapped, looped as dlc-replay does. The options of a Chakra
// job (--coll-size, --root, --comm-groups) are refused (exit 2).
JobToPredict dlc_job_to_predict(const PredictJobOptions& o, const replay::PlanOptions& po) {
  const dlcnet::cli::ChakraCollectiveText none;
  const dlcnet::cli::ChakraCollectiveText& c = o.collectives;
  const char* chakra_option = c.coll_size != none.coll_size       ? "--coll-size"
                              : c.root != none.root               ? "--root"
                              : c.comm_groups != none.comm_groups ? "--comm-groups"
                                                                  : nullptr;
  if (chakra_option != nullptr) {
    throw dlcnet::cli::UsageError(std::string(chakra_option) +
                                  ": reads a Chakra job's collectives; this job is SketchDLC or "
                                  "native (a Chakra job is a directory of <name>.<rank>.et files)");
  }
  const trace::Job job = trace::read_job(o.inputs);
  const replay::RankMap map = replay::RankMap::make(job, o.map_spec);
  const replay::Copies copies = replay::Copies::make(job, po.iterations);
  check_model_fits(job, copies, o.iterations);
  return {replay::job_messages(job, map, po, copies), map.world_size()};
}

int run_predict_job(const PredictJobOptions& o) {
  std::vector<NamedPath> files;
  for (const std::string& path : o.inputs) files.push_back({"JOB", path});
  files.push_back({"--like", o.like});
  files.push_back({"--calibration", o.calibration});
  files.push_back({"--out", o.out, true});
  check_files(files);
  OutputFile fct("--out", o.out);
  const model::Calibration c = model::read_calibration(o.calibration);
  const FlowMap like = read_flow_map(o.like);
  // The plan's part size is the replay's default: it splits a message into transport
  // operations, which the model does not see (a message is a replayed send).
  replay::PlanOptions po;
  po.mode = o.mode == "asap" ? replay::Mode::asap
                             : (o.mode == "timed" ? replay::Mode::timed : replay::Mode::dag);
  po.iterations = o.iterations;
  po.time_scale = o.time_scale;
  const JobToPredict job = trace::chakra::is_chakra_input(o.inputs) ? chakra_job_to_predict(o, po)
                                                                    : dlc_job_to_predict(o, po);
  const replay::JobMessages& jm = job.messages;
  model::Network net = model::uniform_network(static_cast<uint32_t>(job.world), c);
  net.connections = o.sharing == "connection";
  const model::Prediction p = model::predict(net, c, jm.messages);

  const NamedFct named = name_prediction(like, jm.messages, jm.key, jm.opnum, p, net.latency_s, c);
  write_stream(fct, [&](std::ostream& f) { write_fct_txt(f, named.records); });
  std::cout << "dlc-compare predict-job: " << jm.messages.size() << " messages on " << job.world
            << " ranks (" << o.mode << "), from 0 to " << (p.end_s - named.origin_s) * 1e3
            << " ms; " << named.records.size() << " named after " << o.like;
  if (named.unnamed > 0) std::cout << ", " << named.unnamed << " not in it (left out)";
  std::cout << "; fct.txt in " << o.out << '\n';
  return kExitOk;
}

}  // namespace

void add_predict_job(CLI::App& app, int* exit, Argv) {
  auto o = std::make_shared<PredictJobOptions>();
  CLI::App* sub = app.add_subcommand(
      "predict-job",
      "Predict a DLC job (SketchDLC, native or Chakra) from its dependencies and think times as "
      "dlc-replay runs it, and write HPCC's fct.txt named after a replay's flow map "
      "(docs/compare.md)");
  sub->add_option("JOB", o->inputs,
                  "the job: a directory or trace files, as dlc-replay takes (a Chakra job: its "
                  "directory of .et files)")
      ->required();
  sub->add_option("--like", o->like,
                  "the flow map of a replay of this job (--export-flows FILE: FILE.map): the "
                  "messages' names in fct.txt")
      ->required();
  sub->add_option("--calibration", o->calibration, "calibration JSON (docs/model.md)")->required();
  sub->add_option("--out", o->out, "fct.txt to write")->required();
  sub->add_option("--map", o->map_spec,
                  "dlc-replay's --map, if the replay had one (not for Chakra jobs)");
  sub->add_option("--mode", o->mode, "dlc-replay's --mode")
      ->check(CLI::IsMember({"dag", "asap", "timed"}))
      ->capture_default_str();
  sub->add_option("--iterations", o->iterations,
                  "dlc-replay's --iterations (0: the trace's; not for Chakra jobs)")
      ->check(dlcnet::cli::whole<uint32_t>(0, kMaxIterations));
  sub->add_option("--time-scale", o->time_scale, "dlc-replay's --time-scale")
      ->check(dlcnet::cli::real(1e-6, kMaxTimeScale));
  sub->add_option("--sharing", o->sharing, "as for predict")
      ->check(CLI::IsMember({"flow", "connection"}))
      ->capture_default_str();
  dlcnet::cli::add_chakra_collective_options(*sub, o->collectives);
  sub->callback([o, exit] { *exit = run_predict_job(*o); });
}

}  // namespace dlcnet::compare::cli
