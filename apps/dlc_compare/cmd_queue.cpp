// dlc-compare queue MEASURED PREDICTED: a measured queue (a dlc-bench fanin report with its
// sampled qdisc) against a predicted one (the model's --queue, SimAI's queue monitor, HPCC's
// qlen.txt): peaks, means, the distance of the two series and each round's queue, on the
// console, in JSON and CSV (compare/queue_compare.hpp, docs/compare.md).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "apps/cli_number.hpp"
#include "apps/dlc_compare/commands.hpp"
#include "compare/queue_read.hpp"
#include "compare/queue_report.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "core/run_context.hpp"

namespace dlcnet::compare::cli {
namespace {

struct QueueOptions {
  std::string measured, predicted, format, measured_format, port, json, csv;
  double offset_s = 0, grid_us = 1000, hpcc_sample_ns = 100;
  bool offset_given = false;
};

int run_queue(const QueueOptions& o, Argv args) {
  check_files({{"MEASURED", o.measured},
               {"PREDICTED", o.predicted},
               {"--json", o.json, true},
               {"--csv", o.csv, true}});
  const std::unique_ptr<OutputFile> json = open_output("--json", o.json);
  const std::unique_ptr<OutputFile> csv = open_output("--csv", o.csv);
  QueueSource msrc;
  msrc.format = o.measured_format;
  msrc.hpcc_sample_s = o.hpcc_sample_ns * 1e-9;
  QueueSource psrc = msrc;
  psrc.format = o.format;
  if (!o.port.empty()) psrc.port = parse_queue_port(o.port);
  const QueueInput m = read_queue_input(o.measured, msrc);
  const QueueInput p = read_queue_input(o.predicted, psrc);
  double offset = 0;
  std::string from = "none";
  if (o.offset_given) {
    offset = o.offset_s;
    from = "--offset-s";
  } else if (m.fanin && !m.fanin->origin_from.empty()) {
    offset = m.fanin->origin_s;
    from = m.fanin->origin_from;
  }
  const std::vector<QueueRound> rounds = m.fanin ? m.fanin->rounds : std::vector<QueueRound>{};
  QueueComparison c = compare_queues(m.series, p.series, rounds, offset, from, o.grid_us * 1e-6);
  c.measured_note = m.note;
  c.predicted_note = p.note;
  // A known reason: with TCP's initial window each sender puts a burst on the wire a window at
  // a time, growing round by round, and the rest waits in its socket buffer, not at the port
  // the prediction queues (docs/compare.md "Queue monitors").
  if (m.fanin && m.fanin->senders_default_window.value_or(false) &&
      c.predicted_peak.max_bytes > 1.5 * c.measured_peak.max_bytes) {
    c.explanation =
        "the senders ran TCP's initial window (their routes set no initcwnd): a burst leaves "
        "each sender a window at a time and waits in its socket buffer, not at the port; hold "
        "queues on a star made with --initcwnd 1000 (scripts/netns-star.sh), as an RDMA NIC "
        "sends";
  }
  print_queue_comparison(std::cout, c);
  auto write_csv = [&] {
    if (csv) write_stream(*csv, [&](std::ostream& out) { write_queue_csv(out, c); });
  };
  auto write_json = [&] {
    if (!json) return;
    nlohmann::json doc = queue_comparison_json(c);
    doc["context"] = make_run_context("dlc-compare queue", args.argc, args.argv);
    write_json_file(*json, doc);
  };
  write_each({write_csv, write_json});
  return kExitOk;
}

}  // namespace

void add_queue(CLI::App& app, int* exit, Argv args) {
  auto o = std::make_shared<QueueOptions>();
  CLI::App* sub = app.add_subcommand(
      "queue",
      "Compare a measured queue (dlc-bench fanin --qdisc --json) with a predicted one (the "
      "model's --queue, SimAI's queue monitor CSV, HPCC's qlen.txt) (docs/compare.md)");
  sub->add_option("MEASURED", o->measured,
                  "dlc-bench fanin --json report with its sampled qdisc (or any queue file)")
      ->required();
  sub->add_option("PREDICTED", o->predicted,
                  "the model's queue.csv, SimAI's queue monitor or HPCC's qlen.txt")
      ->required();
  const std::vector<std::string> formats = {"fanin", "model", "simai", "hpcc"};
  sub->add_option("--format", o->format, "PREDICTED's format (default: sniffed)")
      ->check(CLI::IsMember(formats));
  sub->add_option("--measured-format", o->measured_format, "MEASURED's format (default: sniffed)")
      ->check(CLI::IsMember(formats));
  sub->add_option("--port", o->port,
                  "SimAI/HPCC: the switch port to compare, SW:PORT (SimAI also SW:PORT:QUEUE, "
                  "that queue alone); default: the port with the largest peak");
  sub->add_option("--offset-s", o->offset_s,
                  "PREDICTED's time 0 is MEASURED's time OFFSET (default: the fan-in report's "
                  "flow_origin_s, the first post, which is flow.txt's time 0)")
      ->check(dlcnet::cli::real(-1e9, 1e9))
      ->each([o](const std::string&) { o->offset_given = true; });
  sub->add_option("--grid-us", o->grid_us, "the common grid's step in us")
      ->check(dlcnet::cli::real(1e-3, 1e12))
      ->capture_default_str();
  sub->add_option("--hpcc-sample-ns", o->hpcc_sample_ns,
                  "HPCC: the monitor's sample interval (third.cc's qlen_mon_interval)")
      ->check(dlcnet::cli::real(1e-3, 1e12))
      ->capture_default_str();
  sub->add_option("--json", o->json, "write the comparison (dlcnet.compare-queue/1) here");
  sub->add_option("--csv", o->csv,
                  "write both series on the grid here (t_s,measured_bytes,predicted_bytes)");
  sub->callback([o, exit, args] { *exit = run_queue(*o, args); });
}

}  // namespace dlcnet::compare::cli
