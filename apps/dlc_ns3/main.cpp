// dlc-ns3-predict FLOW_TXT --calibration C.json --run RUN.json --out fct.txt [--queue Q.csv]:
// ns-3's prediction of a run on the namespace star (star_sim.hpp), written as HPCC's fct.txt
// for `dlc-compare MEASURED fct.txt`, and the tbf's backlog toward rank 0 as the model's queue
// CSV for `dlc-compare queue` (docs/compare.md, "ns-3 as a predictor"). With --job JOB --like
// RUN.map instead of FLOW_TXT, a replayed job closed loop (job_mode.cpp). Parses options only.
#include <ctime>
#include <iostream>
#include <memory>
#include <span>
#include <vector>

#include <CLI/CLI.hpp>

#include "apps/cli_main.hpp"
#include "apps/cli_number.hpp"
#include "apps/dlc_ns3/mirror_checks.hpp"
#include "apps/dlc_ns3/predict_options.hpp"
#include "apps/dlc_ns3/run_settings.hpp"
#include "apps/dlc_ns3/star_outputs.hpp"
#include "apps/dlc_ns3/star_sim.hpp"
#include "apps/version/version.hpp"
#include "core/distinct_files.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "flows/hpcc_flow.hpp"
#include "model/calibration.hpp"
#include "model/hpcc_prediction.hpp"

namespace {

using namespace dlcnet;
using ns3p::PredictOptions;

// The simulator's acknowledgement times as the model's messages: fct_from_prediction adds the
// calibration's base latency to a message's arrival for its acknowledgement.
model::Prediction as_prediction(std::span<const HpccFlow> flows, const ns3p::StarResult& r,
                                double base_latency_s) {
  model::Prediction p;
  for (size_t i = 0; i < flows.size(); ++i) {
    const double arrival = r.finish_s[i] - base_latency_s;
    p.messages.push_back({flows[i].start_s, flows[i].start_s, arrival, arrival});
  }
  return p;
}

int run_flows(const PredictOptions& o) {
  try {
    check_distinct_files({{"FLOW_TXT", o.flows},
                          {"--calibration", o.calibration},
                          {"--run", o.run},
                          {"--out", o.out, true},
                          {"--queue", o.queue, true}});
  } catch (const Error& e) {
    throw cli::UsageError(e.what());
  }
  OutputFile fct("--out", o.out);
  const std::unique_ptr<OutputFile> queue = open_output("--queue", o.queue);
  const model::Calibration c = model::read_calibration(o.calibration);
  ns3p::StarNetwork net{o.hosts, o.rank_link_Bps, c.base_latency_s, ns3p::read_run_settings(o.run)};
  const std::vector<HpccFlow> flows = read_flow_txt(o.flows);
  std::vector<ns3p::Transfer> transfers;
  for (const HpccFlow& f : flows) transfers.push_back({f.src, f.dst, f.size});
  const ns3p::TransferNames names{o.flows, [](size_t i) { return "flow " + std::to_string(i); }};
  net.hosts = ns3p::star_hosts(
      o.hosts, ns3p::check_mirrorable(net.run, transfers, names, o.allow_rendezvous), o.flows);
  const std::clock_t cpu0 = std::clock();
  const ns3p::StarResult r = ns3p::simulate_star(net, flows);
  const double cpu_s = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  const model::Prediction p = as_prediction(flows, r, c.base_latency_s);
  write_stream(
      fct, [&](std::ostream& out) { write_fct_txt(out, model::fct_from_prediction(flows, p, c)); });
  if (queue) write_stream(*queue, [&](std::ostream& out) { ns3p::write_queue_csv(out, r.queue); });
  std::cout << "dlc-ns3-predict: " << flows.size() << " flows on " << ns3p::describe_star(net)
            << " simulated in " << cpu_s << " s CPU; fct.txt in " << o.out << '\n';
  return 0;
}

int run(const PredictOptions& o) {
  if (o.flows.empty() == o.job.inputs.empty()) {
    throw cli::UsageError("FLOW_TXT or --job JOB: one of them");
  }
  return o.flows.empty() ? ns3p::run_job(o) : run_flows(o);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "dlc-ns3-predict: ns-3's packet-level prediction of a run on the namespace star "
      "(scripts/netns-star.sh): the run's flows over Linux-like TCP through the star's tbf, "
      "written as HPCC's fct.txt for dlc-compare (docs/compare.md, \"ns-3 as a predictor\"); "
      "with --job, a replayed DLC job, each message posted when the ones it waits for have "
      "arrived in the simulation"};
  PredictOptions o;
  int exit = 0;
  app.add_option("FLOW_TXT", o.flows,
                 "HPCC flow list the run exported (--export-flows), each flow at its start");
  CLI::Option* job =
      app.add_option("--job", o.job.inputs,
                     "instead of FLOW_TXT: the DLC job the run replayed (a directory or trace "
                     "files, as dlc-replay takes), predicted from its dependencies");
  app.add_option("--like", o.like,
                 "with --job: the replay's flow map (--export-flows FILE: FILE.map), the "
                 "messages' names in fct.txt");
  app.add_option("--calibration", o.calibration,
                 "calibration JSON (dlc-compare calibrate): link_rate_Bps, base_latency_s")
      ->required();
  app.add_option("--run", o.run,
                 "the run's JSON report: its context's star description and TCP stacks")
      ->required();
  app.add_option("--out", o.out, "fct.txt to write")->required();
  app.add_option("--queue", o.queue,
                 "also write the tbf's backlog toward rank 0 over time (CSV time_s,bytes)");
  app.add_option("--hosts", o.hosts, "ranks on the star (default: the largest id + 1)")
      ->check(cli::whole<uint32_t>(1, 4096));
  app.add_option("--rank-link-rate", o.rank_link_Bps,
                 "each rank's link to the switch in payload bytes/s (a veth's speed: only the "
                 "tbf limits; the calibration's link_rate_Bps makes every link a bottleneck)")
      ->check(cli::real(1, 1e15))
      ->capture_default_str();
  app.add_flag("--allow-rendezvous", o.allow_rendezvous,
               "simulate messages UCX sent by rendezvous as eager ones (a warning), instead "
               "of refusing the run");
  cli::add_job_plan_options(app, o.job);
  for (const char* name : {"--like", "--map", "--mode", "--iterations", "--time-scale"}) {
    app.get_option(name)->needs(job);
  }
  job->needs(app.get_option("--like"));
  app.callback([&] { exit = run(o); });
  add_version_flag(app, "dlc-ns3-predict");
  app.footer(
      "Exit status: 0 done; 2 a bad command line; 3 a bad or unsupported input (named with "
      "its file and field) or a simulation that did not complete.");
  return cli::parse_and_run(app, argc, argv, "dlc-ns3-predict", exit);
}
