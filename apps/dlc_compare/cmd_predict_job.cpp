// dlc-compare predict-job JOB --like RUN.map --calibration C.json --out fct.txt: the reference
// model's prediction of a DLC job (SketchDLC, native or Chakra) run the way dlc-replay runs it,
// from its dependencies and think times (apps/job_plan_options.hpp), written as HPCC's fct.txt
// named after a replay's flow map (its sports), for `dlc-compare RUN.map fct.txt --free-starts`.
// With --run, the network is the namespace star the replay ran on (model/star_network.hpp).
#include <iostream>
#include <memory>

#include "apps/dlc_compare/commands.hpp"
#include "apps/job_plan_options.hpp"
#include "compare/named_fct.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "flows/flow_map.hpp"
#include "flows/hpcc_fct.hpp"
#include "model/predict.hpp"
#include "model/star_network.hpp"

namespace dlcnet::compare::cli {
namespace {

struct PredictJobOptions {
  dlcnet::cli::JobPlanOptions plan;
  std::string like, calibration, out, run, sharing = "connection";
};

int run_predict_job(const PredictJobOptions& o) {
  std::vector<NamedPath> files;
  for (const std::string& path : o.plan.inputs) files.push_back({"JOB", path});
  files.push_back({"--like", o.like});
  files.push_back({"--calibration", o.calibration});
  if (!o.run.empty()) files.push_back({"--run", o.run});
  files.push_back({"--out", o.out, true});
  check_files(files);
  OutputFile fct("--out", o.out);
  const model::Calibration c = model::read_calibration(o.calibration);
  const FlowMap like = read_flow_map(o.like);
  const dlcnet::cli::PlannedJob planned = dlcnet::cli::plan_job_messages(o.plan);
  const replay::JobMessages& jm = planned.messages;
  model::Network net = o.run.empty() ? model::uniform_network(planned.ranks, c)
                                     : model::read_star_network(o.run, planned.ranks, c);
  net.connections = o.sharing == "connection";
  const model::Prediction p = model::predict(net, c, jm.messages);

  const NamedFct named = name_prediction(like, jm.messages, jm.key, jm.opnum, p, net.latency_s, c);
  write_stream(fct, [&](std::ostream& f) { write_fct_txt(f, named.records); });
  std::cout << "dlc-compare predict-job: " << jm.messages.size() << " messages on " << planned.ranks
            << " ranks (" << o.plan.mode << "), from 0 to " << (p.end_s - named.origin_s) * 1e3
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
  sub->add_option("JOB", o->plan.inputs,
                  "the job: a directory or trace files, as dlc-replay takes (a Chakra job: its "
                  "directory of .et files)")
      ->required();
  sub->add_option("--like", o->like,
                  "the flow map of a replay of this job (--export-flows FILE: FILE.map): the "
                  "messages' names in fct.txt")
      ->required();
  sub->add_option("--calibration", o->calibration, "calibration JSON (docs/model.md)")->required();
  sub->add_option("--out", o->out, "fct.txt to write")->required();
  sub->add_option("--run", o->run,
                  "the replay's JSON report (--json) from a namespace star: the network is that "
                  "star's, only its shaped ports toward the hosts at the calibration's rate "
                  "(default: every host's up and down link at that rate)");
  dlcnet::cli::add_job_plan_options(*sub, o->plan);
  sub->add_option("--sharing", o->sharing, "as for predict")
      ->check(CLI::IsMember({"flow", "connection"}))
      ->capture_default_str();
  sub->callback([o, exit] { *exit = run_predict_job(*o); });
}

}  // namespace dlcnet::compare::cli
