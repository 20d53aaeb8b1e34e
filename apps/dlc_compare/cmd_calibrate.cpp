// dlc-compare calibrate LAT.json BW.json... --out c.json: the model's calibration from
// dlc-bench lat and bw reports taken on the fabric at hand (model/bench_calibration.hpp).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "apps/dlc_compare/commands.hpp"
#include "core/error.hpp"
#include "core/json_file.hpp"
#include "core/output_file.hpp"
#include "core/run_context.hpp"
#include "model/bench_calibration.hpp"
#include "model/calibration_source.hpp"

namespace dlcnet::compare::cli {
namespace {

struct CalibrateOptions {
  std::vector<std::string> reports;
  std::string out;
  std::string link_rate = "auto";
};

model::LinkRateFrom link_rate_from(const std::string& s) {
  if (s == "bw") return model::LinkRateFrom::bw;
  if (s == "star") return model::LinkRateFrom::star;
  return model::LinkRateFrom::automatic;
}

int run_calibrate(const CalibrateOptions& o) {
  std::vector<NamedPath> files;
  for (const std::string& path : o.reports) files.push_back({"REPORTS", path});
  files.push_back({"--out", o.out, true});
  check_files(files);
  OutputFile out("--out", o.out);
  std::vector<nlohmann::json> docs;
  docs.reserve(o.reports.size());
  std::vector<model::BenchReport> reports;
  for (const std::string& path : o.reports)
    docs.push_back(read_json_file(path, "a dlc-bench report"));
  for (size_t i = 0; i < docs.size(); ++i) reports.push_back({o.reports[i], &docs[i]});
  std::string names;  // a type error the reader did not check for: it names every report
  for (const std::string& path : o.reports) names += (names.empty() ? "" : ", ") + path;
  nlohmann::json chosen;
  const model::Calibration c = interpret_json(names, [&] {
    return model::calibration_from_bench(reports, link_rate_from(o.link_rate), &chosen);
  });
  // What predict would refuse to read (a rate below 1 B/s, ...) is refused here, naming the
  // reports it came from.
  (void)model::calibration_from_json(model::to_json(c), names);
  nlohmann::json doc = model::to_json(c);
  doc["link_rate"] = chosen;
  doc["source"] = model::calibration_source(reports);
  write_json_file(out, doc);
  std::cout << "dlc-compare calibrate: base latency " << c.base_latency_s * 1e6 << " us, rate ";
  if (chosen["from"] == "star") {
    const nlohmann::json& star = chosen["star"];
    std::cout << "the star's " << star["tbf_rate"].get<std::string>() << " of frames ("
              << star["payload_Bps"].get<double>() * 8e-6 << " Mbit/s of payload in "
              << c.payload_bytes << " B segments, its " << c.bucket_bytes
              << " B burst a token bucket; the bw run's steady rate "
              << chosen["bw_steady_payload_Bps"].get<double>() * 8e-6 << " Mbit/s)";
  } else {
    std::cout << c.link_rate_Bps * 8e-9 << " Gbit/s (payload, the bw run's)";
  }
  std::cout << ", " << c.overhead_by_size.size() << " size overheads; " << o.out << '\n';
  return kExitOk;
}

}  // namespace

void add_calibrate(CLI::App& app, int* exit, Argv) {
  auto o = std::make_shared<CalibrateOptions>();
  CLI::App* sub = app.add_subcommand(
      "calibrate",
      "Write the model's calibration from dlc-bench lat and bw --json reports (docs/model.md)");
  sub->add_option("REPORTS", o->reports, "dlc-bench lat and bw JSON reports")->required();
  sub->add_option("--out", o->out, "calibration JSON to write")->required();
  sub->add_option("--link-rate", o->link_rate,
                  "where the link rate comes from: bw (the bw run's steady rate of payload), "
                  "star (the namespace star's tbf rate of frames, with its TCP segments' "
                  "headers; the bw report must have run on one), auto (star when the bw "
                  "report ran on one, else bw)")
      ->check(CLI::IsMember({"auto", "bw", "star"}))
      ->capture_default_str();
  sub->callback([o, exit] { *exit = run_calibrate(*o); });
}

}  // namespace dlcnet::compare::cli
