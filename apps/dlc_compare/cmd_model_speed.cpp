// dlc-compare model-speed: how many messages per second of wall time the reference model
// predicts, on a seeded mix of a parameter-server job and background flows (the timing is
// model/model_speed.hpp, the mix model/workload_mix.hpp). bench/model_speed.sh runs it.
#include <iostream>
#include <memory>

#include "apps/cli_number.hpp"
#include "apps/dlc_compare/commands.hpp"
#include "core/memory_budget.hpp"
#include "core/run_context.hpp"
#include "model/model_speed.hpp"
#include "model/workload_mix.hpp"

namespace dlcnet::compare::cli {
namespace {

// A mix of more messages than a run of minutes; about what the model holds per message.
constexpr uint64_t kMaxMessages = 100'000'000;
constexpr uint32_t kMaxHosts = 65536;
constexpr uint64_t kBytesPerMessage = 512;

struct SpeedOptions {
  model::MixSpec mix;
  int repeat = 3;
  std::string json;
};

int run_speed(const SpeedOptions& o, Argv args) {
  check_fits_in_memory(o.mix.messages, kBytesPerMessage,
                       "--messages " + std::to_string(o.mix.messages), "ask for fewer");
  const std::unique_ptr<OutputFile> json = open_output("--json", o.json);  // before the work
  const model::ModelSpeed speed = model::time_model(o.mix, o.repeat, std::cout);
  if (json) {
    write_json_file(*json, model::model_speed_report(
                               make_run_context("dlc-compare model-speed", args.argc, args.argv),
                               o.mix, speed));
  }
  return kExitOk;
}

}  // namespace

void add_model_speed(CLI::App& app, int* exit, Argv args) {
  auto o = std::make_shared<SpeedOptions>();
  CLI::App* sub = app.add_subcommand(
      "model-speed", "Time the reference model on a seeded job-plus-background mix");
  sub->add_option("--messages", o->mix.messages, "messages in the mix")
      ->check(dlcnet::cli::whole<uint64_t>(1, kMaxMessages))
      ->capture_default_str();
  sub->add_option("--hosts", o->mix.hosts, "hosts (host 0 the server)")
      ->check(dlcnet::cli::whole<uint32_t>(2, kMaxHosts))
      ->capture_default_str();
  sub->add_option("--seed", o->mix.seed, "random seed")
      ->check(dlcnet::cli::whole<uint64_t>(0))
      ->capture_default_str();
  sub->add_option("--repeat", o->repeat, "timed runs")
      ->check(dlcnet::cli::whole<int>(1, 1000))
      ->capture_default_str();
  sub->add_option("--json", o->json, "write the timings as JSON");
  sub->callback([o, exit, args] { *exit = run_speed(*o, args); });
}

}  // namespace dlcnet::compare::cli
