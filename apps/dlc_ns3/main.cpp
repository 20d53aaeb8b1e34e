// dlc-ns3-predict FLOW_TXT --calibration C.json --run RUN.json --out fct.txt [--queue Q.csv]:
// ns-3's prediction of a run on the namespace star (star_sim.hpp), written as HPCC's fct.txt
// for `dlc-compare MEASURED fct.txt`, and the tbf's backlog toward rank 0 as the model's queue
// CSV for `dlc-compare queue` (docs/compare.md, "ns-3 as a predictor"). Parses options only.
#include <algorithm>
#include <ctime>
#include <iostream>
#include <memory>
#include <set>
#include <span>
#include <utility>

#include <CLI/CLI.hpp>

#include "apps/cli_main.hpp"
#include "apps/cli_number.hpp"
#include "apps/dlc_ns3/run_settings.hpp"
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

struct Options {
  std::string flows, calibration, run, out, queue;
  uint32_t hosts = 0;
  double rank_link_Bps = 5e9;  // 40 Gbit/s: a veth's speed, above any tbf's
  bool allow_rendezvous = false;
};

// UCX's rendezvous (a handshake through the receiver before the data) is not simulated: a flow
// it carried is refused unless --allow-rendezvous, then said on stderr.
void check_rendezvous(const Options& o, const ns3p::RunSettings& run,
                      std::span<const HpccFlow> flows) {
  for (size_t i = 0; i < flows.size(); ++i) {
    if (run.rendezvous_from == 0 || flows[i].size < run.rendezvous_from) continue;
    const std::string what = run.rendezvous_field + ": UCX sent messages from " +
                             std::to_string(run.rendezvous_from) + " bytes on by rendezvous (" +
                             o.flows + " flow " + std::to_string(i) + ": " +
                             std::to_string(flows[i].size) +
                             " bytes), a handshake through the receiver this simulation does "
                             "not have";
    if (!o.allow_rendezvous) {
      throw Error(what + "; measure with UCX_RNDV_THRESH=inf, or --allow-rendezvous");
    }
    std::cerr << "dlc-ns3-predict: warning: " << what << ": simulated as eager\n";
    return;
  }
}

// One connection per direction is simulated: a run whose UCX carried both directions between
// two ranks on one connection is refused when data went both ways between a pair (a fan-in
// without --pull sends one way; its control messages are not flows).
void check_connections(const Options& o, const ns3p::RunSettings& run,
                       std::span<const HpccFlow> flows) {
  if (!run.one_connection_per_peer) return;
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (size_t i = 0; i < flows.size(); ++i) {
    seen.emplace(flows[i].src, flows[i].dst);
    if (!seen.contains({flows[i].dst, flows[i].src})) continue;
    throw Error(run.connections_field +
                ": 'peer': UCX carried both directions between two ranks "
                "on one connection, and " +
                o.flows + " flow " + std::to_string(i) + " (host " + std::to_string(flows[i].src) +
                " to " + std::to_string(flows[i].dst) +
                ") goes against an earlier one; the simulation has one connection per direction: "
                "measure with --ucx-connections direction");
  }
}

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

int run(const Options& o) {
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
  check_rendezvous(o, net.run, flows);
  uint32_t needed = 1;
  for (size_t i = 0; i < flows.size(); ++i) {
    const HpccFlow& f = flows[i];
    if (f.src == f.dst) {
      throw Error(o.flows + ": flow " + std::to_string(i) + ": from host " + std::to_string(f.src) +
                  " to itself: the star has no such path");
    }
    needed = std::max({needed, f.src + 1, f.dst + 1});
  }
  check_connections(o, net.run, flows);
  if (net.hosts == 0) net.hosts = needed;
  if (net.hosts < needed) {
    throw cli::UsageError("--hosts " + std::to_string(net.hosts) + ": " + o.flows + " names host " +
                          std::to_string(needed - 1));
  }
  const std::clock_t cpu0 = std::clock();
  const ns3p::StarResult r = ns3p::simulate_star(net, flows);
  const double cpu_s = double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  const model::Prediction p = as_prediction(flows, r, c.base_latency_s);
  write_stream(
      fct, [&](std::ostream& out) { write_fct_txt(out, model::fct_from_prediction(flows, p, c)); });
  if (queue) {
    write_stream(*queue, [&](std::ostream& out) {
      out << "time_s,bytes\n";
      out.precision(12);  // ns over hours
      for (const ns3p::QueueSample& q : r.queue) out << q.t_s << ',' << q.bytes << '\n';
    });
  }
  std::cout << "dlc-ns3-predict: " << flows.size() << " flows on " << net.hosts << " hosts ("
            << net.run.congestion_control << ", initcwnd " << net.run.initcwnd << ", tbf "
            << net.run.tbf_rate_Bps * 8 / 1e6 << " Mbit/s) simulated in " << cpu_s
            << " s CPU; fct.txt in " << o.out << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "dlc-ns3-predict: ns-3's packet-level prediction of a run on the namespace star "
      "(scripts/netns-star.sh): the run's flows over Linux-like TCP through the star's tbf, "
      "written as HPCC's fct.txt for dlc-compare (docs/compare.md, \"ns-3 as a predictor\")"};
  Options o;
  int exit = 0;
  app.add_option("FLOW_TXT", o.flows, "HPCC flow list the run exported (--export-flows)")
      ->required();
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
  app.callback([&] { exit = run(o); });
  add_version_flag(app, "dlc-ns3-predict");
  app.footer(
      "Exit status: 0 done; 2 a bad command line; 3 a bad or unsupported input (named with "
      "its file and field) or a simulation that did not complete.");
  return cli::parse_and_run(app, argc, argv, "dlc-ns3-predict", exit);
}
