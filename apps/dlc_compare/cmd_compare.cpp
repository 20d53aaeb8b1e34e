// dlc-compare MEASURED PREDICTED: a flow map written by --export-flows (what was measured)
// against an fct.txt of the flow.txt beside it (HPCC's, SimAI's or ASTRA-sim's ns-3, or
// `dlc-compare predict`): per-message and per-group errors on the console, in JSON and CSV.
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "apps/cli_number.hpp"
#include "apps/dlc_compare/commands.hpp"
#include "compare/calibration_check.hpp"
#include "compare/compare_report.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "core/run_context.hpp"
#include "model/calibration.hpp"

namespace dlcnet::compare::cli {
namespace {

struct CompareOptions {
  std::string measured, predicted, calibration, json, csv;
  double ack_us = -1;
  bool free_starts = false;
};

int run_compare(const CompareOptions& o, Argv args) {
  check_files({{"MEASURED", o.measured},
               {"PREDICTED", o.predicted},
               {"--calibration", o.calibration},
               {"--json", o.json, true},
               {"--csv", o.csv, true}});
  const std::unique_ptr<OutputFile> json = open_output("--json", o.json);
  const std::unique_ptr<OutputFile> csv = open_output("--csv", o.csv);
  double ack_s = o.ack_us * 1e-6;
  std::optional<model::Calibration> cal;
  if (!o.calibration.empty()) {
    cal = model::read_calibration(o.calibration);
    ack_s = cal->base_latency_s;
  }
  const FlowMap map = read_flow_map(o.measured);
  const std::vector<FctRecord> fct = read_fct_txt(o.predicted);
  // Said before the comparison's own "no flow could be compared", which names MEASURED only.
  if (fct.empty() && !map.flows.empty()) {
    throw Error(o.predicted + ": empty: no fct.txt record for the " +
                std::to_string(map.flows.size()) + " flows of " + o.measured);
  }
  const Comparison c = compare(map, o.measured, fct, o.predicted, ack_s * 1e9, o.free_starts);
  print_comparison(std::cout, c);
  const std::optional<CalibrationCheck> fit = cal ? check_calibration(map, *cal) : std::nullopt;
  if (fit && !fit->warning.empty())
    std::cerr << "dlc-compare: warning: " << o.calibration << ": " << fit->warning << '\n';
  auto write_csv = [&] {
    if (csv) write_stream(*csv, [&](std::ostream& out) { write_comparison_csv(out, c); });
  };
  auto write_json = [&] {
    if (!json) return;
    nlohmann::json doc = comparison_json(c);
    if (fit) {
      doc["calibration_fit"] = {{"fastest_over_idle", fit->fastest_ratio},
                                {"warning", fit->warning.empty() ? nlohmann::json(nullptr)
                                                                 : nlohmann::json(fit->warning)}};
    }
    doc["context"] = make_run_context("dlc-compare", args.argc, args.argv);
    write_json_file(*json, doc);
  };
  write_each({write_csv, write_json});
  if (c.messages.count == 0) {
    std::cerr << "dlc-compare: error: no flow of " << o.measured << " could be compared\n";
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

void add_compare(CLI::App& app, int* exit, Argv args) {
  auto o = std::make_shared<CompareOptions>();
  app.add_option("MEASURED", o->measured,
                 "the flow map a run wrote with --export-flows FILE (FILE.map)");
  app.add_option(
      "PREDICTED", o->predicted,
      "fct.txt predicted for FILE (by ns-3 HPCC/SimAI/ASTRA-sim or dlc-compare predict)");
  auto* cal = app.add_option("--calibration", o->calibration,
                             "calibration JSON: its base latency is the acknowledgement's, which "
                             "turns a measured one-way latency into HPCC's fct");
  auto* ack = app.add_option("--ack-latency-us", o->ack_us,
                             "the acknowledgement's one-way latency in us, instead of "
                             "--calibration")
                  ->check(dlcnet::cli::real(0, 1e6));
  cal->excludes(ack);
  app.add_flag("--free-starts", o->free_starts,
               "the prediction chose its own start times (dlc-compare predict-job): do not "
               "require them to be the measured ones");
  app.add_option("--json", o->json, "write the comparison (dlcnet.compare/1) here");
  app.add_option("--csv", o->csv, "write one line per compared message here (for plots)");
  app.callback([o, exit, args, &app] {
    if (!app.get_subcommands().empty()) return;
    if (o->measured.empty() || o->predicted.empty()) {
      throw dlcnet::cli::UsageError(
          "MEASURED and PREDICTED are required (or a subcommand: predict, calibrate, queue, "
          "model-speed)");
    }
    if (o->calibration.empty() && o->ack_us < 0) {
      throw dlcnet::cli::UsageError(
          "--calibration or --ack-latency-us: the measured one-way latency needs the "
          "acknowledgement's to be HPCC's fct");
    }
    *exit = run_compare(*o, args);
  });
}

}  // namespace dlcnet::compare::cli
