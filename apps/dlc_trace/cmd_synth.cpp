// dlc-trace synth: generate a valid job (one directory, one folder per node, like a capture).
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>

#include "apps/cli_number.hpp"
#include "apps/dlc_trace/commands.hpp"
#include "core/error.hpp"
#include "core/run_context.hpp"
#include "core/units.hpp"
#include "trace/trace_output_dir.hpp"
#include "trace/trace_sketch_writer.hpp"
#include "trace/trace_synth.hpp"
#include "trace/trace_synth_config.hpp"

namespace dlcnet::trace::cli {
namespace {

// Bounds of the numeric options (dlcnet::cli::whole/real check the text before conversion):
// within them every time of the generated job fits the trace's fields and the validator's
// checks (check_config() bounds what they combine to).
constexpr uint16_t kMaxNodes = 4095;
constexpr uint32_t kMaxIterations = 10'000'000;
constexpr double kMaxMs = 3600e3;  // one hour

struct SynthOptions {
  std::string out;
  std::string model = "lenet5";
  std::string model_file;
  std::string sizes;
  int64_t meta_bytes = -1;
  uint64_t records = 0;
  std::string split_above = "0";
  double compute_ms = 10, update_us = 50, search_us = 5, think_us = 2, latency_us = 20;
  double bandwidth_gbps = 10, clock_skew_s = 2;
  bool no_sch = false;
  bool force = false;
  SynthConfig config;
};

int run_synth(SynthOptions& o, Argv args) {
  SynthConfig& c = o.config;
  if (!o.model_file.empty()) {
    c.model = read_model_file(o.model_file);
  } else if (!o.sizes.empty()) {
    c.model = model_from_sizes(o.sizes);
  } else {
    c.model = preset_model(o.model);
  }
  if (o.meta_bytes >= 0) c.model.meta_bytes = static_cast<uint32_t>(o.meta_bytes);
  c.compute_s = o.compute_ms * 1e-3;
  c.update_s = o.update_us * 1e-6;
  c.search_s = o.search_us * 1e-6;
  c.think_s = o.think_us * 1e-6;
  c.latency_s = o.latency_us * 1e-6;
  c.bandwidth_Bps = o.bandwidth_gbps * 1e9 / 8;
  c.clock_skew_s = o.clock_skew_s;
  c.split_above = parse_size(o.split_above, "--split-above");
  c.scheduler_files = !o.no_sch;
  if (o.records != 0) c.iterations = iterations_for_records(c, o.records);
  check_config(c);
  prepare_output_dir(o.out, o.force);
  const Job job = synthesize(c);
  write_sketch_job(job, o.out);
  const uint64_t records = job.record_count();
  nlohmann::json doc;
  doc["context"] = make_run_context("dlc-trace synth", args.argc, args.argv);
  doc["config"] = synth_config_json(c, records);
  OutputFile config("-o", (std::filesystem::path(o.out) / "synth.json").string());
  write_json_file(config, doc);
  std::cout << "wrote " << o.out << ": " << c.workers << " workers, " << c.servers << " servers, "
            << c.model.params.size() << " keys (" << c.model.name << "), " << c.iterations
            << " iterations, " << records << " records, " << job.messages.size() << " messages\n";
  return kExitOk;
}

}  // namespace

void add_synth(CLI::App& app, int* exit, Argv args) {
  auto o = std::make_shared<SynthOptions>();
  CLI::App* sub = app.add_subcommand(
      "synth",
      "Generate a valid job: W workers and S servers training a model (sizes of its "
      "parameters) for N iterations; seeded and reproducible. Writes DIR/worker<i>/"
      "trace_record.txt, DIR/server<j>/trace_record.txt, trace_sch_record.txt beside each, "
      "and DIR/synth.json (the configuration)");
  SynthConfig& c = o->config;
  sub->add_option("-o,--out", o->out, "job directory to write")->required();
  sub->add_option("-w,--workers", c.workers, "workers")
      ->check(dlcnet::cli::whole<uint16_t>(1, kMaxNodes))
      ->capture_default_str();
  sub->add_option("-s,--servers", c.servers, "servers")
      ->check(dlcnet::cli::whole<uint16_t>(1, kMaxNodes))
      ->capture_default_str();
  sub->add_option("-n,--iterations", c.iterations, "training iterations")
      ->check(dlcnet::cli::whole<uint32_t>(1, kMaxIterations))
      ->capture_default_str();
  sub->add_option("--records", o->records,
                  "choose the iterations for about this many records (overrides -n)")
      ->check(dlcnet::cli::whole<uint64_t>(1, uint64_t{1} << 40));
  sub->add_option("-m,--model", o->model, "preset model: lenet5 or resnet50")
      ->capture_default_str();
  sub->add_option("--model-file", o->model_file,
                  "model file: one parameter a line, 'bytes' or 'name bytes'");
  sub->add_option("--sizes", o->sizes, "parameter sizes, comma-separated (e.g. 2000,80,1M)");
  sub->add_option("--meta-bytes", o->meta_bytes,
                  "ps-lite meta bytes of every message (default: the preset's, else 64)")
      ->check(dlcnet::cli::whole<int64_t>(0, 1 << 20));
  sub->add_option("--compute-ms", o->compute_ms, "computation per iteration at each worker")
      ->check(dlcnet::cli::real(0, kMaxMs))
      ->capture_default_str();
  sub->add_option("--overlap", c.overlap,
                  "phase 2 / computation: the pushes are spread over this last share of each "
                  "iteration's computation (backward pass). Not stats' overlap column, which is "
                  "phase 2 / iter_time (SketchDLC) and reads overlap x computation / iter_time")
      ->check(dlcnet::cli::real(0, 1))
      ->capture_default_str();
  sub->add_option("--update-us", o->update_us, "server update time per key")
      ->check(dlcnet::cli::real(0, kMaxMs * 1e3))
      ->capture_default_str();
  sub->add_option("--search-us", o->search_us, "server time to answer a pull")
      ->check(dlcnet::cli::real(0, kMaxMs * 1e3))
      ->capture_default_str();
  sub->add_option("--think-us", o->think_us, "worker time from push ack to pull request")
      ->check(dlcnet::cli::real(0, kMaxMs * 1e3))
      ->capture_default_str();
  sub->add_option("--jitter", c.jitter, "relative jitter of the times above, uniform +/-")
      ->check(dlcnet::cli::real(0, 0.99))
      ->capture_default_str();
  sub->add_option("--latency-us", o->latency_us, "one-way message latency before its bytes")
      ->check(dlcnet::cli::real(0, kMaxMs * 1e3))
      ->capture_default_str();
  sub->add_option("--bandwidth-gbps", o->bandwidth_gbps, "link bandwidth")
      ->check(dlcnet::cli::real(1e-3, 1e6))
      ->capture_default_str();
  sub->add_option("--split-above", o->split_above,
                  "split keys larger than this over all servers (0: never)")
      ->capture_default_str();
  sub->add_option("--clock-skew-s", o->clock_skew_s, "node clocks off by up to this much")
      ->check(dlcnet::cli::real(0, kMaxMs / 1e3))
      ->capture_default_str();
  sub->add_option("--seed", c.seed, "random seed")
      ->check(dlcnet::cli::whole<uint64_t>(0))
      ->capture_default_str();
  sub->add_flag("--no-scheduler-files", o->no_sch, "do not write trace_sch_record.txt files");
  sub->add_flag("--overwrite", o->force, "replace the job in a non-empty output directory");
  sub->callback([o, exit, args] { *exit = run_synth(*o, args); });
}

}  // namespace dlcnet::trace::cli
