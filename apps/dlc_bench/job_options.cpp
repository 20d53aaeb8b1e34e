#include "apps/dlc_bench/job_options.hpp"

#include "apps/cli_number.hpp"
#include "apps/cpu_option.hpp"
#include "apps/timeout_option.hpp"
#include "apps/ucx_connections_option.hpp"
#include "core/error.hpp"

namespace dlcnet::bench {

void add_job_options(CLI::App& app, JobOptions& o) {
  app.add_option("--rank", o.rank, "this process's rank (else from mpirun, PMI or srun)")
      ->check(cli::whole<int>(0, kMaxRanks));
  app.add_option("--world-size", o.world, "number of ranks")->check(cli::whole<int>(1, kMaxRanks));
  app.add_option("--coordinator", o.given.coordinator, "HOST:PORT where rank 0 listens");
  o.token_option = app.add_option("--job-token", o.token, "a number every rank of one job shares")
                       ->check(cli::whole<uint64_t>(0));
  app.add_flag("--spawn", o.spawn, "start every rank on this host (a try-out)");
  app.add_option("--spawn-timeout", o.spawn_timeout_s, "--spawn: kill every rank after this")
      ->check(cli::whole<int>(1, cli::kMaxTimeout));
  cli::add_cpu_option(app, o.cpu, false);
}

void add_transport_options(CLI::App& app, std::string& kind, TransportOptions& t,
                           bool short_ib_port) {
  app.add_option("--transport", kind, "auto, verbs or ucx")
      ->check(CLI::IsMember({"auto", "verbs", "ucx"}))
      ->capture_default_str();
  app.add_option("--ucx-tls", t.ucx_tls, "UCX_TLS for the UCX transport");
  cli::add_ucx_connections_option(app, t);
  app.add_option("-d,--ib-dev", t.device, "RDMA device (UCX: UCX_NET_DEVICES)");
  app.add_option(short_ib_port ? "-i,--ib-port" : "--ib-port", t.ib_port, "device port")
      ->check(cli::whole<int>(0, 255));
  app.add_option("-x,--gid-index", t.gid_index, "GID index")->check(cli::whole<int>(-1, 65535));
  app.add_flag("--rdma-cm", t.rdma_cm, "connect queue pairs with rdma_cm");
  app.add_option("-t,--tx-depth", t.send_depth, "operations in flight per peer")
      ->check(cli::whole<uint32_t>(1, 1u << 16))
      ->capture_default_str();
}

void finish_job_options(JobOptions& o) {
  if (o.rank >= 0) o.given.rank = o.rank;
  if (o.world >= 0) o.given.world_size = o.world;
  if (o.token_option && o.token_option->count() > 0) o.given.job_token = o.token;
  if (o.spawn && (o.given.rank || o.given.world_size || !o.given.coordinator.empty())) {
    throw Error("--spawn starts every rank itself: give no --rank, --world-size or --coordinator");
  }
}

}  // namespace dlcnet::bench
