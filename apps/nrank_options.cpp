#include "apps/nrank_options.hpp"

#include "apps/cli_number.hpp"
#include "apps/cpu_option.hpp"
#include "apps/flow_options.hpp"
#include "apps/star_links_option.hpp"
#include "apps/timeout_option.hpp"
#include "apps/ucx_connections_option.hpp"
#include "core/distinct_files.hpp"
#include "core/error.hpp"

namespace dlcnet::cli {
namespace {

void add_rank_options(CLI::App& app, NRankCli& o) {
  app.add_option("--rank", o.rank, "this process's rank (else from mpirun, PMI or srun)")
      ->check(whole<int>(0, kMaxRanks - 1));
  app.add_option("--world-size", o.world, "number of ranks")->check(whole<int>(1, kMaxRanks));
  app.add_option("--coordinator", o.given.coordinator, "HOST:PORT where rank 0 listens");
  o.token_option = app.add_option("--job-token", o.token, "a number every rank of one job shares")
                       ->check(whole<uint64_t>(0));
  app.add_flag("--spawn", o.spawn, "start every rank on this host (a try-out)");
  app.add_option("--spawn-timeout", o.spawn_timeout_s, "--spawn: kill every rank after this")
      ->check(whole<int>(1, kMaxTimeout))
      ->capture_default_str();
}

void add_transport_options(CLI::App& app, NRankCli& o, ShortNames s) {
  TransportOptions& t = o.run.transport;
  app.add_option("--transport", o.run.transport_kind, "auto, verbs or ucx")
      ->check(CLI::IsMember({"auto", "verbs", "ucx"}))
      ->capture_default_str();
  app.add_option("--ucx-tls", t.ucx_tls, "UCX_TLS for the UCX transport (e.g. sm, tcp)");
  add_ucx_connections_option(app, t);
  app.add_option(s.ib_dev ? "-d,--ib-dev" : "--ib-dev", t.device,
                 "RDMA device (default: the first active; UCX: UCX_NET_DEVICES)");
  app.add_option(s.ib_port ? "-i,--ib-port" : "--ib-port", t.ib_port,
                 "device port (default: the first active)")
      ->check(whole<int>(0, 255));
  app.add_option("-x,--gid-index", t.gid_index, "GID index (default: RoCE v2 IPv4)")
      ->check(whole<int>(-1, 65535));
  app.add_flag("--rdma-cm", t.rdma_cm, "connect queue pairs with rdma_cm");
  app.add_option(s.tx_depth ? "-t,--tx-depth" : "--tx-depth", t.send_depth,
                 "transport operations in flight per peer")
      ->check(whole<uint32_t>(1, 1u << 16))
      ->capture_default_str();
}

void add_run_options(CLI::App& app, NRankCli& o, ShortNames s) {
  runner::NRankOptions& r = o.run;
  add_cpu_option(app, r.cpu, s.cpu);
  app.add_option("--idle", o.idle,
                 "when idle: spin, yield the CPU, sleep in 50 us naps (emulated guests), block "
                 "on the transport's events (UCX; else yield), or auto (yield when as many ranks "
                 "as cores, or more, share the host; else spin)")
      ->check(CLI::IsMember({"auto", "spin", "yield", "sleep", "block"}))
      ->capture_default_str();
  app.add_option("--clock-samples", r.clock_samples, "ping-pongs per rank and clock estimate")
      ->check(whole<uint32_t>(1, 100))
      ->capture_default_str();
  app.add_option("--timeout", r.timeout_s, kTimeoutHelp)
      ->check(whole<int>(1, kMaxTimeout))
      ->capture_default_str();
  app.add_option("--json", r.json_path, "write the JSON report here (rank 0)");
  app.add_option("--records", r.records_path,
                 "per-message CSV, one file per rank (PATH.rank<R>.csv, or %r in PATH)");
  add_fct_options(app, r.fct_path, r.calibration_path);
  add_export_flows_option(app, r.export_flows);
  add_star_links_option(app, r.star_links);
  app.add_flag("-q,--quiet", r.quiet, "only errors on the console");
}

}  // namespace

void add_nrank_options(CLI::App& app, NRankCli& o, ShortNames s) {
  add_rank_options(app, o);
  add_transport_options(app, o, s);
  add_run_options(app, o, s);
}

void finish_nrank_options(NRankCli& o) {
  o.run.idle = *idle_policy_from_string(o.idle);
  if (o.rank >= 0) o.given.rank = o.rank;
  if (o.world >= 0) o.given.world_size = o.world;
  if (o.token_option && o.token_option->count() > 0) o.given.job_token = o.token;
  if (o.spawn && (o.given.rank || o.given.world_size || !o.given.coordinator.empty())) {
    throw Error("--spawn starts every rank itself: give no --rank, --world-size or --coordinator");
  }
  // Rank 0's outputs, each a file of its own, none of them the calibration it reads.
  const runner::NRankOptions& r = o.run;
  check_distinct_files(
      {{"--json", r.json_path, true},
       {"--fct", r.fct_path, true},
       {"--export-flows", r.export_flows, true},
       {"--export-flows' map", r.export_flows.empty() ? "" : r.export_flows + ".map", true},
       {"--records", r.records_path, true},
       {"--calibration", r.calibration_path, false}});
}

}  // namespace dlcnet::cli
