// dlc-compare model-speed: how many messages per second of wall time the reference model
// predicts, on a seeded mix of a parameter-server job and background flows
// (model/workload_mix.hpp). bench/model_speed.sh runs it.
#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "apps/dlc_compare/commands.hpp"
#include "core/run_context.hpp"
#include "model/predict.hpp"
#include "model/workload_mix.hpp"

namespace dlcnet::compare::cli {
namespace {

double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct SpeedOptions {
  model::MixSpec mix;
  int repeat = 3;
  std::string json;
};

int run_speed(const SpeedOptions& o, Argv args) {
  const std::unique_ptr<OutputFile> json = open_output("--json", o.json);  // before the work
  const std::vector<model::Message> messages = model::workload_mix(o.mix);
  model::Calibration c;
  c.link_rate_Bps = o.mix.link_rate_Bps;
  c.base_latency_s = 2e-6;
  c.overhead_s = 1e-6;
  const model::Network net = model::uniform_network(o.mix.hosts, c);
  nlohmann::json runs = nlohmann::json::array();
  double best = 0;
  model::Prediction p;
  for (int r = 0; r < o.repeat; ++r) {
    const double cpu0 = thread_cpu_s();
    const auto t0 = std::chrono::steady_clock::now();
    p = model::predict(net, c, messages);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = thread_cpu_s() - cpu0;
    // Per CPU second: the machine is shared, wall time counts other people's work too.
    const double rate = static_cast<double>(messages.size()) / cpu;
    best = std::max(best, rate);
    runs.push_back({{"wall_s", wall},
                    {"cpu_s", cpu},
                    {"messages_per_cpu_s", rate},
                    {"messages_per_wall_s", static_cast<double>(messages.size()) / wall}});
    std::cout << "model-speed: " << messages.size() << " messages in " << cpu << " s of CPU ("
              << wall << " s wall): " << rate << " messages per CPU second; " << p.events
              << " events, " << p.solves << " solves of "
              << static_cast<double>(p.solved_pairs) / static_cast<double>(p.solves)
              << " pairs on average, " << p.end_s - p.begin_s << " s modelled\n";
  }
  if (json) {
    nlohmann::json doc;
    doc["context"] = make_run_context("dlc-compare model-speed", args.argc, args.argv);
    doc["workload"] = {{"messages", messages.size()},
                       {"hosts", o.mix.hosts},
                       {"keys", o.mix.keys},
                       {"seed", o.mix.seed},
                       {"link_rate_Bps", o.mix.link_rate_Bps},
                       {"background_load", o.mix.background_load}};
    doc["events"] = p.events;
    doc["solves"] = p.solves;
    doc["mean_pairs_per_solve"] =
        p.solves ? static_cast<double>(p.solved_pairs) / static_cast<double>(p.solves) : 0;
    doc["modelled_s"] = p.end_s - p.begin_s;
    doc["runs"] = runs;
    doc["best_messages_per_cpu_s"] = best;
    write_json_file(*json, doc);
  }
  return kExitOk;
}

}  // namespace

void add_model_speed(CLI::App& app, int* exit, Argv args) {
  auto o = std::make_shared<SpeedOptions>();
  CLI::App* sub = app.add_subcommand(
      "model-speed", "Time the reference model on a seeded job-plus-background mix");
  sub->add_option("--messages", o->mix.messages, "messages in the mix")->capture_default_str();
  sub->add_option("--hosts", o->mix.hosts, "hosts (host 0 the server)")->capture_default_str();
  sub->add_option("--seed", o->mix.seed, "random seed")->capture_default_str();
  sub->add_option("--repeat", o->repeat, "timed runs")->capture_default_str();
  sub->add_option("--json", o->json, "write the timings as JSON");
  sub->callback([o, exit, args] { *exit = run_speed(*o, args); });
}

}  // namespace dlcnet::compare::cli
