#include "apps/dlc_replay/options.hpp"

#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <map>

#include "apps/cli_number.hpp"
#include "apps/cpu_option.hpp"
#include "apps/flow_options.hpp"
#include "apps/star_links_option.hpp"
#include "apps/timeout_option.hpp"
#include "apps/ucx_connections_option.hpp"
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
constexpr int kMaxRanks = 65535;

void validate(Options& o, const std::string& mode, const std::string& op, const std::string& idle,
              const std::string& release, int rank, int world) {
  RunOptions& r = o.run;
  r.plan.mode = *mode_from_string(mode);
  r.plan.transfer = *transfer_from_string(op);
  r.idle = *idle_policy_from_string(idle);
  r.release = *release_from_string(release);
  if (r.plan.time_scale < 0) throw Error("--time-scale: must be 0 or more");
  if (r.timeout_s < 1) throw Error("--timeout: at least 1 second");
  if (r.clock_samples < 1 || r.clock_samples > 100) throw Error("--clock-samples: 1 to 100");
  if (r.recv_ahead < 1) throw Error("--recv-ahead: at least 1");
  if (rank >= 0) o.given.rank = rank;
  if (world >= 0) o.given.world_size = world;
  if (o.spawn && (o.given.rank || o.given.world_size || !o.given.coordinator.empty())) {
    throw Error("--spawn starts every rank itself: give no --rank, --world-size or --coordinator");
  }
  if (o.spawn_timeout_s < 1) throw Error("--spawn-timeout: at least 1 second");
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv) {
  Options o;
  RunOptions& r = o.run;
  CLI::App app{
      "dlc-replay: replay a DLC trace's messages over verbs or UCX, one process per trace "
      "node, and report what every message experienced"};
  std::string mode = "dag", op = "send", idle = "auto", release = "instant", part_text;
  int rank = -1, world = -1;
  uint64_t token = 0;
  app.add_option("job", r.inputs, "job directory (or trace files)")->required();
  app.add_option("--mode", mode,
                 "dag: dependencies + think time; timed: trace time stamps; "
                 "asap: dependencies only")
      ->check(CLI::IsMember({"dag", "timed", "asap"}))
      ->capture_default_str();
  app.add_option("--time-scale", r.plan.time_scale, "multiply think times (timed: time stamps)")
      ->check(dlcnet::cli::real(0, kMaxTimeScale))
      ->capture_default_str();
  app.add_option("--iterations", r.plan.iterations,
                 "training iterations to replay: fewer cuts the job, more loops it (0: as traced)")
      ->check(dlcnet::cli::whole<uint32_t>(0, kMaxIterations));
  app.add_option("--op", op, "push/pull as send/receive, or RDMA write + notification")
      ->check(CLI::IsMember({"send", "write"}))
      ->capture_default_str();
  app.add_option("--map", r.map_spec,
                 "trace node to rank, e.g. server0=0,worker0=1 (default: "
                 "workers then servers)");
  app.add_option("--transport", r.transport_kind, "auto, verbs or ucx")
      ->check(CLI::IsMember({"auto", "verbs", "ucx"}))
      ->capture_default_str();
  app.add_option("--ucx-tls", r.transport.ucx_tls, "UCX_TLS for the UCX transport (e.g. sm, tcp)");
  dlcnet::cli::add_ucx_connections_option(app, r.transport);
  app.add_option("-d,--ib-dev", r.transport.device, "RDMA device (default: first active)");
  app.add_option("-i,--ib-port", r.transport.ib_port, "device port (default: first active)")
      ->check(dlcnet::cli::whole<int>(0, 255));
  app.add_option("-x,--gid-index", r.transport.gid_index, "GID index (default: RoCE v2 IPv4)")
      ->check(dlcnet::cli::whole<int>(-1, 65535));
  app.add_flag("--rdma-cm", r.transport.rdma_cm, "connect queue pairs with rdma_cm");
  app.add_option("--rank", rank, "this process's rank (else from mpirun, PMI or srun)")
      ->check(dlcnet::cli::whole<int>(0, kMaxRanks));
  app.add_option("--world-size", world, "number of ranks")
      ->check(dlcnet::cli::whole<int>(1, kMaxRanks));
  app.add_option("--coordinator", o.given.coordinator, "HOST:PORT where rank 0 listens");
  auto* tok = app.add_option("--job-token", token, "shared secret of this job's ranks")
                  ->check(dlcnet::cli::whole<uint64_t>(0));
  app.add_flag("--spawn", o.spawn, "start every rank on this host (a try-out)");
  app.add_flag("--check", o.check,
               "read the job and check the options, say how many ranks it needs, and exit: "
               "nothing is sent");
  app.add_option("--spawn-timeout", o.spawn_timeout_s, "--spawn: kill every rank after this")
      ->check(dlcnet::cli::whole<int>(1, dlcnet::cli::kMaxTimeout));
  app.add_option("--json", r.json_path, "write the JSON report here (rank 0)");
  dlcnet::cli::add_star_links_option(app, r.star_links);
  app.add_option("--records", r.records_path,
                 "per-message CSV, one file per rank (PATH.rank<R>.csv, or %r in PATH)");
  dlcnet::cli::add_fct_options(app, r.fct_path, r.calibration_path);
  dlcnet::cli::add_export_flows_option(app, r.export_flows);
  app.add_option("--clock-samples", r.clock_samples, "ping-pongs per rank and clock estimate")
      ->check(dlcnet::cli::whole<uint32_t>(1, 100))
      ->capture_default_str();
  app.add_option("--timeout", r.timeout_s, dlcnet::cli::kTimeoutHelp)
      ->check(dlcnet::cli::whole<int>(1, dlcnet::cli::kMaxTimeout))
      ->capture_default_str();
  app.add_option("--recv-ahead", r.recv_ahead, "receives posted ahead per peer")
      ->check(dlcnet::cli::whole<uint32_t>(1, 1u << 16))
      ->capture_default_str();
  app.add_option("--part-bytes", part_text,
                 "split messages above this size, e.g. 64K (default: the transport's maximum)");
  app.add_option("-t,--tx-depth", r.transport.send_depth,
                 "transport operations in flight per peer (with --part-bytes: a window for slow "
                 "or lossy fabrics)")
      ->check(dlcnet::cli::whole<uint32_t>(1, 1u << 16))
      ->capture_default_str();
  app.add_option("--idle", idle,
                 "when idle: spin, yield the CPU, sleep in 50 us naps (emulated guests), block "
                 "on the transport's events until just before the next post (UCX; else yield), "
                 "or auto (yield when more ranks than cores, or as many, share the host; "
                 "else spin)")
      ->check(CLI::IsMember({"auto", "spin", "yield", "sleep", "block"}))
      ->capture_default_str();
  app.add_option("--release", release,
                 "how the ranks start replaying: at a common instant on rank 0's clock (through "
                 "the clock alignment), or as a bootstrap barrier releases them (one after the "
                 "other, low ranks first)")
      ->check(CLI::IsMember({"instant", "barrier"}))
      ->capture_default_str();
  app.add_flag("-q,--quiet", r.quiet, "no progress messages on stderr");
  dlcnet::cli::add_cpu_option(app, r.cpu);
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
  add_version_flag(app, "dlc-replay");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return {std::nullopt, rc == 0 ? 0 : 2};
  }
  if (tok->count() > 0) o.given.job_token = token;
  try {
    if (!part_text.empty()) {
      r.part_limit = parse_size(part_text, "--part-bytes");
      // At least 4: a message (up to 4 GiB) then has at most 2^30 parts (kMaxParts).
      if (r.part_limit < 4) throw Error("--part-bytes: at least 4 bytes");
    }
    if (r.transport.send_depth == 0) throw Error("-t: at least 1");
    validate(o, mode, op, idle, release, rank, world);
  } catch (const Error& e) {
    std::cerr << "dlc-replay: " << e.what() << '\n';
    return {std::nullopt, 2};
  }
  return {std::move(o), 0};
}

}  // namespace dlcnet::replay::cli
