// dlc-compare predict-job JOB --like RUN.map --calibration C.json --out fct.txt: the reference
// model's prediction of a DLC job run the way dlc-replay runs it, from its dependencies and
// think times (replay/job_messages.hpp), written as HPCC's fct.txt named after a replay's flow
// map (its sports), for `dlc-compare RUN.map fct.txt --free-starts`.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <tuple>

#include "apps/dlc_compare/commands.hpp"
#include "compare/flow_map.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "flows/fct.hpp"
#include "model/hpcc_fct.hpp"
#include "model/predict.hpp"
#include "replay/job_messages.hpp"
#include "replay/replay_rank_map.hpp"
#include "trace/trace_loader.hpp"

namespace dlcnet::compare::cli {
namespace {

struct PredictJobOptions {
  std::vector<std::string> inputs;
  std::string like, calibration, out, map_spec, mode = "dag", sharing = "connection";
  uint32_t iterations = 0;
  double time_scale = 1.0;
};

uint64_t to_ns(double s) {
  return s <= 0 ? 0 : static_cast<uint64_t>(std::llround(s * 1e9));
}

int run_predict_job(const PredictJobOptions& o) {
  OutputFile fct("--out", o.out);
  const model::Calibration c = model::read_calibration(o.calibration);
  const FlowMap like = read_flow_map(o.like);
  const trace::Job job = trace::read_job(o.inputs);
  const replay::RankMap map = replay::RankMap::make(job, o.map_spec);
  replay::PlanOptions po;
  po.mode = o.mode == "asap" ? replay::Mode::asap
                             : (o.mode == "timed" ? replay::Mode::timed : replay::Mode::dag);
  po.iterations = o.iterations;
  po.time_scale = o.time_scale;
  const replay::Copies copies = replay::Copies::make(job, po.iterations);
  const replay::JobMessages jm = replay::job_messages(job, map, po, copies);
  model::Network net = model::uniform_network(static_cast<uint32_t>(map.world_size()), c);
  net.connections = o.sharing == "connection";
  const model::Prediction p = model::predict(net, c, jm.messages);

  using Key = std::tuple<uint32_t, uint32_t, int32_t, int32_t>;
  std::map<Key, const MappedFlow*> by_name;
  for (const MappedFlow& f : like.flows) by_name[{f.src, f.dst, f.key, f.opnum}] = &f;
  double origin = p.messages.empty() ? 0 : p.messages[0].start_s;
  for (const model::MessageTimes& t : p.messages) origin = std::min(origin, t.start_s);
  std::vector<model::FctRecord> out;
  uint64_t unnamed = 0;
  for (size_t i = 0; i < jm.messages.size(); ++i) {
    const model::Message& m = jm.messages[i];
    const auto it = by_name.find({m.src, m.dst, jm.key[i], jm.opnum[i]});
    if (it == by_name.end()) {
      ++unnamed;
      continue;
    }
    const model::MessageTimes& t = p.messages[i];
    model::FctRecord r;
    r.sip = hpcc_node_ip(m.src);
    r.dip = hpcc_node_ip(m.dst);
    r.sport = it->second->sport;
    r.dport = 100;
    r.size = m.bytes;
    r.start_ns = to_ns(t.start_s - origin);
    r.fct_ns = to_ns(t.finish_s + net.latency_s - t.start_s);
    r.standalone_ns = to_ns(model::standalone_fct_s(m.bytes, c));
    out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const model::FctRecord& a, const model::FctRecord& b) {
                     return a.start_ns + a.fct_ns < b.start_ns + b.fct_ns;
                   });
  write_stream(fct, [&](std::ostream& f) { model::write_fct_txt(f, out); });
  std::cout << "dlc-compare predict-job: " << jm.messages.size() << " messages on "
            << map.world_size() << " ranks (" << o.mode << "), from 0 to "
            << (p.end_s - origin) * 1e3 << " ms; " << out.size() << " named after " << o.like;
  if (unnamed > 0) std::cout << ", " << unnamed << " not in it (left out)";
  std::cout << "; fct.txt in " << o.out << '\n';
  return kExitOk;
}

}  // namespace

void add_predict_job(CLI::App& app, int* exit, Argv) {
  auto o = std::make_shared<PredictJobOptions>();
  CLI::App* sub = app.add_subcommand(
      "predict-job",
      "Predict a DLC job from its dependencies and think times as dlc-replay runs it, and "
      "write HPCC's fct.txt named after a replay's flow map (docs/compare.md)");
  sub->add_option("JOB", o->inputs, "the job: a directory or trace files, as dlc-replay takes")
      ->required();
  sub->add_option("--like", o->like,
                  "the flow map of a replay of this job (--export-flows FILE: FILE.map): the "
                  "messages' names in fct.txt")
      ->required();
  sub->add_option("--calibration", o->calibration, "calibration JSON (docs/model.md)")->required();
  sub->add_option("--out", o->out, "fct.txt to write")->required();
  sub->add_option("--map", o->map_spec, "dlc-replay's --map, if the replay had one");
  sub->add_option("--mode", o->mode, "dlc-replay's --mode")
      ->check(CLI::IsMember({"dag", "asap", "timed"}))
      ->capture_default_str();
  sub->add_option("--iterations", o->iterations, "dlc-replay's --iterations (0: the trace's)");
  sub->add_option("--time-scale", o->time_scale, "dlc-replay's --time-scale")
      ->check(CLI::PositiveNumber);
  sub->add_option("--sharing", o->sharing, "as for predict")
      ->check(CLI::IsMember({"flow", "connection"}))
      ->capture_default_str();
  sub->callback([o, exit] { *exit = run_predict_job(*o); });
}

}  // namespace dlcnet::compare::cli
