// dlc-compare predict FLOW_TXT --calibration C.json --out fct.txt: the reference model's
// prediction of an HPCC flow list, written as HPCC's fct.txt; optionally the matching
// topology.txt, the bottleneck port's queue (CSV) and a JSON summary.
#include <iostream>
#include <memory>

#include "apps/cli_number.hpp"
#include "apps/dlc_compare/commands.hpp"
#include "core/error.hpp"
#include "core/log_line.hpp"
#include "core/output_file.hpp"
#include "core/run_context.hpp"
#include "flows/hpcc_flow.hpp"
#include "model/hpcc_prediction.hpp"
#include "model/hpcc_topology.hpp"
#include "model/predict.hpp"
#include "model/predict_report.hpp"

namespace dlcnet::compare::cli {
namespace {

struct PredictOptions {
  std::string flows, calibration, out, topology, queue, json;
  model::NetworkRequest net;
};

int run_predict(const PredictOptions& o, Argv args) {
  if (!o.queue.empty() && o.net.port_host < 0) {
    throw dlcnet::cli::UsageError("--queue: needs a bottleneck port (--port-host)");
  }
  check_files({{"FLOW_TXT", o.flows},
               {"--calibration", o.calibration},
               {"--out", o.out, true},
               {"--topology", o.topology, true},
               {"--queue", o.queue, true},
               {"--json", o.json, true}});
  // Every file opened before the model runs (core/output_file.hpp).
  OutputFile fct("--out", o.out);
  const std::unique_ptr<OutputFile> topology = open_output("--topology", o.topology);
  const std::unique_ptr<OutputFile> queue = open_output("--queue", o.queue);
  const std::unique_ptr<OutputFile> json = open_output("--json", o.json);
  const model::Calibration c = model::read_calibration(o.calibration);
  size_t ignored = 0;
  const std::vector<HpccFlow> flows = read_flow_txt(o.flows, &ignored);
  if (ignored > 0) {
    log_line("dlc-compare predict: " + o.flows + ": the " + std::to_string(flows.size()) +
             " flows its first line counts, as HPCC reads it; the " + std::to_string(ignored) +
             " lines after them left unread");
  }
  const model::Network net = model::network_for(o.net, flows, o.flows, c);
  const std::vector<model::Message> messages = model::messages_from_flows(flows);
  const model::Prediction p = model::predict(net, c, messages);
  write_stream(
      fct, [&](std::ostream& out) { write_fct_txt(out, model::fct_from_prediction(flows, p, c)); });
  if (topology) {
    write_stream(*topology,
                 [&](std::ostream& out) { model::write_topology_txt(out, net.hosts(), c); });
  }
  if (queue) {
    write_stream(*queue, [&](std::ostream& out) {
      out << "time_s,bytes\n";
      out.precision(12);  // ns over hours
      for (const model::QueuePoint& q : p.queue) out << q.t_s << ',' << q.bytes << '\n';
    });
  }
  std::cout << "dlc-compare predict: " << flows.size() << " flows on " << net.hosts()
            << " hosts, from " << p.begin_s << " s to " << p.end_s << " s; " << p.events
            << " events; fct.txt in " << o.out << '\n';
  if (json) {
    write_json_file(
        *json, model::predict_report(make_run_context("dlc-compare predict", args.argc, args.argv),
                                     c, flows.size(), o.net.sharing, net, p, o.out));
  }
  return kExitOk;
}

}  // namespace

void add_predict(CLI::App& app, int* exit, Argv args) {
  auto o = std::make_shared<PredictOptions>();
  CLI::App* sub = app.add_subcommand(
      "predict",
      "Predict every flow of an HPCC flow.txt with the reference model and write HPCC's "
      "fct.txt (docs/model.md)");
  sub->add_option("FLOW_TXT", o->flows,
                  "HPCC flow list: count, then src dst pg dport size "
                  "start_s per line")
      ->required();
  sub->add_option("--calibration", o->calibration,
                  "calibration JSON: link_rate_Bps, base_latency_s, overhead_s, ... "
                  "(docs/model.md)")
      ->required();
  sub->add_option("--out", o->out, "fct.txt to write")->required();
  sub->add_option("--hosts", o->net.hosts,
                  "hosts on the switch (default: the largest id + 1; at most 65536, the hosts "
                  "HPCC's addresses name)")
      ->check(dlcnet::cli::whole<uint32_t>(0, 65536));
  sub->add_option("--topology", o->topology, "also write HPCC's topology.txt for these hosts");
  sub->add_option("--port-host", o->net.port_host,
                  "make the switch's port towards this host a bottleneck with a buffer")
      ->check(dlcnet::cli::whole<int64_t>(0, 65535));
  sub->add_option("--port-rate", o->net.port_rate_Bps,
                  "the bottleneck port's rate in bytes/s (default: the link rate)")
      ->check(dlcnet::cli::real(1, 1e15));
  sub->add_option("--port-buffer", o->net.port_buffer_bytes,
                  "the bottleneck port's buffer in bytes (default 0: a plain link)")
      ->check(dlcnet::cli::real(0, 1e15));
  sub->add_option("--queue", o->queue, "write the port's fluid queue length over time (CSV)");
  sub->add_option("--json", o->json, "a JSON summary: links' utilisation, span, events");
  sub->add_option("--sharing", o->net.sharing,
                  "flow: every flow shares its links on its own (HPCC: a queue pair per flow); "
                  "connection: the flows of one (src, dst) pair go one after another in start "
                  "order, as dlcnet's messages on one queue pair or UCX endpoint")
      ->check(CLI::IsMember({"flow", "connection"}))
      ->capture_default_str();
  sub->callback([o, exit, args] { *exit = run_predict(*o, args); });
}

}  // namespace dlcnet::compare::cli
