#include "apps/dlc_bench/fanin_options.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

#include "apps/cli_number.hpp"
#include "apps/cli_parse.hpp"
#include "apps/nrank_options.hpp"
#include "apps/version/version.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "trace/trace_loader.hpp"
#include "trace/trace_synth.hpp"

namespace dlcnet::fanin::cli {
namespace {

// Bounds of the numeric options (dlcnet::cli::whole/real check the text before conversion).
constexpr uint32_t kMaxIterations = 1'000'000;
constexpr double kMaxMicroseconds = 3600e6;
using dlcnet::cli::kMaxRanks;

struct Text {
  std::string size = "64K", model, sizes_from, op = "send", release = "instant", bg_size = "64K";
  uint32_t burst = 16;
};

// The push of a captured job's worker 0: its data messages of the first training iteration,
// in the order it sent them.
void burst_from_job(FaninSpec& s, const std::string& dir) {
  const std::vector<std::string> inputs{dir};
  const trace::Job job = trace::read_job(inputs);
  if (job.num_workers == 0) throw Error("--sizes-from " + dir + ": the job has no worker");
  const trace::Node& w = job.nodes[job.worker_rank(0)];
  int32_t first = -1;
  for (const trace::Record& r : w.records) {
    if (r.op == trace::Op::kPushSendWorker && r.iteration >= 1) {
      if (first < 0) first = r.iteration;
      if (r.iteration == first) s.burst.push_back(r.length);
    }
  }
  if (s.burst.empty()) {
    throw Error("--sizes-from " + dir + ": " + w.name() +
                " pushes nothing in a training iteration");
  }
  s.burst_source = "the push of " + w.name() + " in iteration " + std::to_string(first) + " of " +
                   dir + ": " + std::to_string(s.burst.size()) + " messages";
}

// The burst: -s SIZE x --burst K, a model's push (one message per key: payload + ps-lite meta
// bytes, as dlc-trace synth sizes them), or a captured job's.
void choose_burst(FaninSpec& s, const Text& t, bool size_given, bool burst_given) {
  if (!t.model.empty() && !t.sizes_from.empty())
    throw Error("--model and --sizes-from exclude each other");
  if ((!t.model.empty() || !t.sizes_from.empty()) && (size_given || burst_given)) {
    throw Error("--model and --sizes-from give the burst: no -s or --burst with them");
  }
  if (!t.sizes_from.empty()) return burst_from_job(s, t.sizes_from);
  if (!t.model.empty()) {
    const std::vector<std::string> names = trace::preset_names();
    if (std::find(names.begin(), names.end(), t.model) == names.end()) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      throw Error("--model " + t.model + ": unknown; the presets are " + list);
    }
    const trace::ModelSpec m = trace::preset_model(t.model);
    for (const trace::ModelParam& p : m.params) s.burst.push_back(p.bytes + m.meta_bytes);
    s.burst_source = "model " + m.name + ": " + std::to_string(s.burst.size()) + " keys";
    return;
  }
  const uint64_t size = parse_size(t.size, "-s");
  if (size == 0) throw Error("-s: at least 1 byte");
  if (t.burst == 0) throw Error("--burst: at least 1 message");
  s.burst.assign(t.burst, size);
  s.burst_source = std::to_string(t.burst) + " x " + format_size(size);
}

void validate(Options& o, const Text& t, bool size_given, bool burst_given) {
  FaninSpec& s = o.fanin.spec;
  choose_burst(s, t, size_given, burst_given);
  s.op = t.op == "write" ? Op::write : Op::send;
  s.release = *release_from_string(t.release);
  s.bg_size = parse_size(t.bg_size, "--bg-size");
  if (s.bg_size < 64) throw Error("--bg-size: at least 64 bytes");
  if (!o.fanin.qdisc_netns.empty() && o.fanin.qdisc_dev.empty()) {
    throw Error("--qdisc-netns names where --qdisc DEV lives: give --qdisc too");
  }
  dlcnet::cli::finish_nrank_options(o.job);
  s.timeout_s = o.job.run.timeout_s;
  if (o.job.spawn && o.workers < 1) {
    throw Error("--spawn needs --workers W (the world is 1 + W + --background)");
  }
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv) {
  Options o;
  fanin::Options& r = o.fanin;
  FaninSpec& s = r.spec;
  Text t;
  CLI::App app{
      "dlc-bench fanin: parameter-server incast. Rank 0 is the server, ranks 1..W workers that "
      "burst toward it every iteration, the last --background ranks stream toward it. Measures "
      "the burst completion time against the bottleneck's limit (from solo rounds in the same "
      "run), every message's one-way latency and slowdown, fairness, and the queue."};
  app.name("dlc-bench fanin");
  auto* size =
      app.add_option("-s,--size", t.size, "message size (64, 4K, 1M)")->capture_default_str();
  auto* burst = app.add_option("--burst", t.burst, "messages per worker and iteration")
                    ->check(dlcnet::cli::whole<uint32_t>(1, 1u << 20))
                    ->capture_default_str();
  app.add_option("--model", t.model, "the burst is this model's push: lenet5 or resnet50");
  app.add_option("--sizes-from", t.sizes_from,
                 "the burst is worker 0's push in a captured job (a dlc-trace job directory)");
  app.add_option("--op", t.op,
                 "send, or write (RDMA write into the server's memory, then an 8-byte send that "
                 "tells it)")
      ->check(CLI::IsMember({"send", "write"}));
  app.add_flag("--pull", s.pull, "the server answers each burst (timed as a second phase)");
  app.add_option("-n,--iters", s.iterations, "measured iterations")
      ->check(dlcnet::cli::whole<uint32_t>(1, kMaxIterations))
      ->capture_default_str();
  app.add_option("--warmup", s.warmup, "unmeasured iterations first")
      ->check(dlcnet::cli::whole<uint32_t>(0, kMaxIterations))
      ->capture_default_str();
  app.add_option("--solo", s.solo, "solo rounds per worker (its burst alone: the limit)")
      ->check(dlcnet::cli::whole<uint32_t>(1, kMaxIterations))
      ->capture_default_str();
  app.add_option("--gap", s.gap_us, "compute time between iterations, us")
      ->check(dlcnet::cli::real(0, kMaxMicroseconds))
      ->capture_default_str();
  app.add_option("--release", t.release,
                 "each round starts at an instant the server names on its clock (through the "
                 "clock alignment), or when the worker receives the server's go (barrier)")
      ->check(CLI::IsMember({"instant", "barrier"}))
      ->capture_default_str();
  app.add_option("--lead-us", r.lead_us, "instant: how far ahead the server names a start")
      ->check(dlcnet::cli::real(0, kMaxMicroseconds))
      ->capture_default_str();
  app.add_option("--background", s.background, "ranks streaming toward the server")
      ->check(dlcnet::cli::whole<int>(0, kMaxRanks))
      ->capture_default_str();
  app.add_option("--bg-size", t.bg_size, "background message size")->capture_default_str();
  app.add_option("--bg-window", s.bg_window, "background messages in flight per rank")
      ->check(dlcnet::cli::whole<uint32_t>(1, 1u << 16))
      ->capture_default_str();
  app.add_option("--bg-lead", s.bg_lead_ms,
                 "background starts this long before the first "
                 "incast iteration, ms")
      ->check(dlcnet::cli::real(0, kMaxMicroseconds / 1000))
      ->capture_default_str();
  app.add_option("--workers", o.workers, "workers (with --spawn; else world - 1 - background)")
      ->check(dlcnet::cli::whole<int>(1, kMaxRanks));
  dlcnet::cli::add_nrank_options(app, o.job, {.ib_port = true, .cpu = false});
  app.add_option("--qdisc", r.qdisc_dev,
                 "rank 0 samples this device's root qdisc (backlog, "
                 "drops) through netlink");
  app.add_option("--qdisc-netns", r.qdisc_netns, "the network namespace --qdisc's device is in");
  app.add_option("--qdisc-hz", r.qdisc_hz, "sampling rate")
      ->check(dlcnet::cli::real(1, 1e6))
      ->capture_default_str();
  add_version_flag(app, "dlc-bench");
  if (auto rc = dlcnet::cli::parse_command_line(app, "dlc-bench fanin", argc - 1, argv + 1))
    return {std::nullopt, *rc};
  try {
    validate(o, t, size->count() > 0, burst->count() > 0);
  } catch (const Error& e) {
    dlcnet::cli::usage_error("dlc-bench fanin", e.what());
    return {std::nullopt, dlcnet::cli::kExitUsage};
  }
  return {std::move(o), 0};
}

}  // namespace dlcnet::fanin::cli
