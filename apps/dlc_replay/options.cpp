#include "apps/dlc_replay/options.hpp"

#include <CLI/CLI.hpp>
#include <csignal>
#include <map>

#include "apps/chakra_options.hpp"
#include "apps/cli_number.hpp"
#include "apps/cli_parse.hpp"
#include "apps/version/version.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace dlcnet::replay::cli {
namespace {

// Bounds of the numeric options (dlcnet::cli::whole/real check the text before conversion).
// A job looped to more iterations than its records allow is refused by the plan's memory
// bound (replay/replay_timeline.hpp), whatever this says.
constexpr uint32_t kMaxIterations = 1'000'000;
constexpr double kMaxTimeScale = 1e6;

struct Text {
  std::string mode = "dag", op = "send", release = "instant", part;
  dlcnet::cli::ChakraCollectiveText collectives;
};

void validate(Options& o, const Text& t) {
  replay::Options& r = o.replay;
  r.plan.mode = *mode_from_string(t.mode);
  r.plan.transfer = *transfer_from_string(t.op);
  r.release = *release_from_string(t.release);
  r.collectives = t.collectives.options();
  if (!t.part.empty()) {
    r.part_limit = parse_size(t.part, "--part-bytes");
    // At least 4: a message (up to 4 GiB) then has at most 2^30 parts (kMaxParts).
    if (r.part_limit < 4) throw Error("--part-bytes: at least 4 bytes");
  }
  dlcnet::cli::finish_nrank_options(o.job);
}

void add_replay_options(CLI::App& app, replay::Options& r, Text& t) {
  app.add_option("job", r.inputs,
                 "job directory (or trace files): SketchDLC or native, or a Chakra job's .et "
                 "files, one rank per file, or native CSV version 2 files (any-rank jobs)")
      ->required();
  app.add_option("--mode", t.mode,
                 "dag: dependencies + think time; timed: trace time stamps; "
                 "asap: dependencies only")
      ->check(CLI::IsMember({"dag", "timed", "asap"}))
      ->capture_default_str();
  app.add_option("--time-scale", r.plan.time_scale, "multiply think times (timed: time stamps)")
      ->check(dlcnet::cli::real(0, kMaxTimeScale))
      ->capture_default_str();
  app.add_option("--iterations", r.plan.iterations,
                 "training iterations to replay: fewer cuts the job, more loops it (0: as "
                 "traced; not for Chakra jobs)")
      ->check(dlcnet::cli::whole<uint32_t>(0, kMaxIterations));
  app.add_option("--op", t.op, "push/pull as send/receive, or RDMA write + notification")
      ->check(CLI::IsMember({"send", "write"}))
      ->capture_default_str();
  app.add_option("--map", r.map_spec,
                 "trace node to rank, e.g. server0=0,worker0=1 (default: "
                 "workers then servers; Chakra jobs: rank r is the file of rank r)");
  dlcnet::cli::add_chakra_collective_options(app, t.collectives);
  app.add_option("--recv-ahead", r.recv_ahead, "receives posted ahead per peer")
      ->check(dlcnet::cli::whole<uint32_t>(1, 1u << 16))
      ->capture_default_str();
  app.add_option("--part-bytes", t.part,
                 "split messages above this size, e.g. 64K (default: the transport's maximum; "
                 "with -t a window for slow or lossy fabrics)");
  app.add_option("--release", t.release,
                 "how the ranks start replaying: at a common instant on rank 0's clock (through "
                 "the clock alignment), or as a bootstrap barrier releases them (one after the "
                 "other, low ranks first)")
      ->check(CLI::IsMember({"instant", "barrier"}))
      ->capture_default_str();
  app.add_option("--fault-rank", r.fault_rank)
      ->check(dlcnet::cli::whole<int>(-1))
      ->group("");  // tests: kill this rank...
  app.add_option("--fault-after", r.fault_after)
      ->check(dlcnet::cli::whole<int64_t>(-1))
      ->group("");  // ...after this many completions...
  app.add_option("--fault-signal", r.fault_signal)
      ->transform(
          CLI::CheckedTransformer(std::map<std::string, int>{{"kill", SIGKILL}, {"stop", SIGSTOP}}))
      ->group("");  // ...with this signal: kill (dies) or stop (frozen, connections open)
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv) {
  Options o;
  Text t;
  CLI::App app{
      "dlc-replay: replay a DLC trace's messages over verbs or UCX, one process per trace "
      "node, and report what every message experienced"};
  add_replay_options(app, o.replay, t);
  app.add_flag("--check", o.check,
               "read the job and check the options, say how many ranks it needs, and exit: "
               "nothing is sent");
  dlcnet::cli::add_nrank_options(app, o.job, {.ib_port = true, .cpu = true});
  add_version_flag(app, "dlc-replay");
  if (auto rc = dlcnet::cli::parse_command_line(app, "dlc-replay", argc, argv))
    return {std::nullopt, *rc};
  try {
    validate(o, t);
  } catch (const Error& e) {
    dlcnet::cli::usage_error("dlc-replay", e.what());
    return {std::nullopt, dlcnet::cli::kExitUsage};
  }
  return {std::move(o), 0};
}

}  // namespace dlcnet::replay::cli
