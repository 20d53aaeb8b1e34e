#include "apps/dlc_replay/run.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/run_context.hpp"
#include "core/tcp_bootstrap.hpp"
#include "core/wire.hpp"
#include "launch/transport_select.hpp"
#include "replay/replay_console.hpp"
#include "replay/replay_engine.hpp"
#include "replay/replay_fct.hpp"
#include "replay/replay_json.hpp"
#include "trace/trace_loader.hpp"

namespace dlcnet::replay {
namespace {

constexpr uint64_t kMaxPart = uint64_t{1} << 30;  // lengths travel as 32-bit in verbs

// Every rank must replay the same job with the same options, or channels would mismatch.
// Returns the part size every rank can carry.
uint64_t agree(Bootstrap& boot, uint64_t fingerprint, uint64_t max_message) {
  WireWriter w;
  w.u64(fingerprint).u64(max_message);
  const std::vector<Bytes> all = boot.allgather(w.bytes());
  uint64_t part = kMaxPart;
  std::string differ;
  for (size_t r = 0; r < all.size(); ++r) {
    WireReader rd(all[r], "plan of rank " + std::to_string(r));
    const uint64_t fp = rd.u64("fingerprint");
    part = std::min(part, rd.u64("max message"));
    rd.expect_end();
    if (fp != fingerprint) differ += (differ.empty() ? "" : ", ") + std::to_string(r);
  }
  if (!differ.empty()) {
    throw Error("rank" + std::string(differ.find(',') == std::string::npos ? " " : "s ") + differ +
                " replay" + (differ.find(',') == std::string::npos ? "s" : "") +
                " another job or with other options (mode, op, iterations, map): start every "
                "rank with the same job and options");
  }
  return part;
}

bool same_kernel(const std::vector<HostIdentity>& hosts, size_t r) {
  return !hosts[r].boot_id.empty() && hosts[r].boot_id == hosts[0].boot_id;
}

// Rank 0's clock is the reference; ranks on its kernel go through CLOCK_MONOTONIC; the others
// through the ping-pongs.
std::vector<ClockModel> clock_models(const std::vector<HostIdentity>& hosts,
                                     const ClockRound& before, const ClockRound& after) {
  std::vector<ClockModel> m(hosts.size());
  for (size_t r = 0; r < hosts.size(); ++r) {
    if (r == 0) {
      m[r] = same_clock_model();
    } else if (same_kernel(hosts, r)) {
      m[r] = fit_clock(before.via_kernel(r), after.via_kernel(r));
      m[r].same_clock = true;
    } else {
      m[r] = fit_clock(before.pingpong[r], after.pingpong[r]);
    }
  }
  return m;
}

Idle idle_policy(IdlePolicy p, const std::vector<HostIdentity>& hosts, int rank,
                 const Transport& t) {
  if (p == IdlePolicy::spin) return Idle::spin;
  if (p == IdlePolicy::yield) return Idle::yield;
  if (p == IdlePolicy::sleep) return Idle::sleep;
  if (p == IdlePolicy::block) return t.can_wait_event() ? Idle::block : Idle::yield;
  const auto local = std::count_if(hosts.begin(), hosts.end(), [&](const HostIdentity& h) {
    return h.boot_id == hosts[static_cast<size_t>(rank)].boot_id;
  });
  // As many spinning ranks as CPUs already starve the kernel's own work (Soft-RoCE does its
  // protocol processing in kernel threads): yield then too. Yielding costs a system call when
  // nothing else wants the CPU. (Blocking on events used half the CPU time but posted later on
  // this project's 2-CPU virtual machine, whose wake-ups are slow: docs/replay.md, Fidelity.)
  return local >= static_cast<long>(std::max(1u, std::thread::hardware_concurrency())) ? Idle::yield
                                                                                       : Idle::spin;
}

// Everything after the bootstrap: transport, plan, clocks, the replay and the reports.
int replay_joined(const RunOptions& o, TcpBootstrap& boot, const trace::Job& job,
                  const RankMap& map, int argc, const char* const* argv);

}  // namespace

std::string rank_path(const std::string& path, int rank, int world_size) {
  const std::string r = std::to_string(rank);
  if (auto at = path.find("%r"); at != std::string::npos) {
    return path.substr(0, at) + r + path.substr(at + 2);
  }
  if (world_size <= 1) return path;
  const auto slash = path.rfind('/');
  const auto dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) ||
      dot == (slash == std::string::npos ? 0 : slash + 1)) {
    return path + ".rank" + r;
  }
  return path.substr(0, dot) + ".rank" + r + path.substr(dot);
}

int run_rank(const RunOptions& o, int argc, const char* const* argv) {
  const trace::Job job = trace::read_job(o.inputs);
  const RankMap map = RankMap::make(job, o.map_spec);
  if (map.world_size() != o.world_size) {
    throw Error("the job has " + std::to_string(map.world_size()) + " nodes to replay (" +
                std::to_string(job.num_workers) + " workers, " + std::to_string(job.num_servers) +
                " servers) but the world has " + std::to_string(o.world_size) +
                " ranks: start one rank per node (or use --spawn)");
  }
  const auto timeout = std::chrono::seconds(o.timeout_s);
  TcpBootstrapConfig bc;
  bc.rank = o.rank;
  bc.size = o.world_size;
  bc.coordinator_host = o.coordinator_host;
  bc.port = o.port;
  bc.job_token = o.job_token;
  bc.join_timeout = timeout;
  bc.op_timeout = timeout;
  TcpBootstrap boot(bc);
  boot.join();
  try {
    return replay_joined(o, boot, job, map, argc, argv);
  } catch (const std::exception& e) {
    // Agree on the job's first cause with the other ranks, so that every rank names the rank
    // that died rather than a survivor that exited a moment earlier because of it.
    throw Error(boot.settle_failure(e.what()));
  }
}

namespace {

int replay_joined(const RunOptions& o, TcpBootstrap& boot, const trace::Job& job,
                  const RankMap& map, int argc, const char* const* argv) {
  const auto timeout = std::chrono::seconds(o.timeout_s);
  TransportOptions topts = o.transport;
  topts.recv_depth = std::max(topts.recv_depth, o.recv_ahead + o.clock_samples + 16);
  topts.connect_timeout_ms = o.timeout_s * 1000;
  // Only when asked for: UCX's wake-up feature may narrow the lanes it picks.
  topts.wakeup = o.idle == IdlePolicy::block;
  TransportChoice choice = open_transport(o.transport_kind, topts);
  Transport& t = *choice.transport;

  PlanOptions popts = o.plan;
  const Copies copies = Copies::make(job, popts.iterations);
  popts.part_bytes = 0;
  uint64_t part = std::min<uint64_t>(t.max_message_size(), kMaxPart);
  if (o.part_limit > 0) part = std::min(part, o.part_limit);
  popts.part_bytes = agree(boot, plan_fingerprint(job, map, popts, copies), part);
  const RankPlan plan = build_rank_plan(job, map, o.rank, popts, copies);

  // The transport's own memory, freed with it after its teardown progressed the last messages.
  const RegionId region = t.allocate_memory(std::max<uint64_t>(plan.region_bytes, 1)).region;
  t.connect(boot, plan.peers);

  const std::vector<HostIdentity> hosts = exchange_identities(boot);
  const Idle idle = idle_policy(o.idle, hosts, o.rank, t);
  const auto before = measure_offsets(t, boot, region, o.clock_samples, timeout, idle);

  std::unique_ptr<RecordWriter> records;
  if (!o.records_path.empty()) {
    records = std::make_unique<RecordWriter>(rank_path(o.records_path, o.rank, o.world_size));
    records->flush();  // the header at least, whatever happens next
  }
  auto name = [&](int r) {
    return "rank " + std::to_string(r) + " (" + job.nodes[map.node_of(r)].name() + ")";
  };
  EngineConfig ec;
  ec.mode = popts.mode;
  ec.transfer = popts.transfer;
  ec.notify_after_write_completion = std::string(t.name()) != "verbs";
  ec.recv_ahead = o.recv_ahead;
  ec.progress_timeout = timeout;
  ec.idle = idle;
  ec.fault_after = o.fault_rank == o.rank ? o.fault_after : -1;
  ec.records = records.get();
  ec.rank_name = name;
  Engine engine(plan, t, boot, region, ec);
  engine.prepare();
  boot.barrier();
  const EngineResult result = engine.run(now_ns());
  boot.barrier();
  const auto after = measure_offsets(t, boot, region, o.clock_samples, timeout, idle);
  const std::vector<ClockModel> clocks = clock_models(hosts, before, after);

  const std::vector<Bytes> posts = boot.alltoall(encode_post_times(plan, result));
  const RankReport mine = make_rank_report(plan, result, posts, clocks);
  std::vector<Bytes> to_root(static_cast<size_t>(o.world_size));
  to_root[0] = encode_report(mine);
  std::vector<Bytes> gathered = boot.alltoall(to_root);

  uint8_t ok = 1;
  if (o.rank == 0) {
    ReplayReport rep;
    rep.inputs = o.inputs;
    rep.options = popts;
    rep.copies = copies;
    rep.transport = choice.chosen;
    rep.transport_reason = choice.reason;
    rep.world_size = o.world_size;
    rep.rank_source = o.rank_source;
    rep.ranks.push_back(mine);
    for (int r = 1; r < o.world_size; ++r) rep.ranks.push_back(decode_report(gathered[r], r));
    for (int r = 0; r < o.world_size; ++r) {
      ClockReport c;
      c.host = hosts[r];
      c.before = before.pingpong[r];
      c.after = after.pingpong[r];
      if (same_kernel(hosts, r)) {
        c.kernel_before = before.via_kernel(r);
        c.kernel_after = after.via_kernel(r);
      }
      c.model = clocks[r];
      rep.clocks.push_back(c);
    }
    analyse(rep, job, map);
    print_report(std::cout, rep, job, map);
    std::cout.flush();
    if (!o.fct_path.empty()) {
      std::ofstream f(o.fct_path);
      FctOptions fo;
      fo.origin_ns = mine.start_ns;
      fo.link_bps = o.link_gbps * 1e9;
      write_fct(f, rep.flows, fo);
      f.flush();
      if (!f) throw Error("cannot write the fct file " + o.fct_path);
    }
    if (!o.json_path.empty()) {
      nlohmann::json doc = report_json(rep, job, map);
      nlohmann::json ctx = make_run_context("dlc-replay", argc, argv);
      add_transport_versions(ctx);
      ctx["transport"] = t.describe();
      ctx["transport_selection"] = choice.to_json();
      ctx["coordinator"] = o.coordinator_host + ":" + std::to_string(boot.port());
      ctx["idle"] = to_string(idle);
      ctx["send_depth"] = topts.send_depth;
      ctx["recv_ahead"] = o.recv_ahead;
      doc["context"] = ctx;
      nlohmann::json files = nlohmann::json::array();
      for (int r = 0; r < o.world_size && !o.records_path.empty(); ++r) {
        files.push_back(rank_path(o.records_path, r, o.world_size));
      }
      doc["files"] = {
          {"records", files},
          {"fct", o.fct_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.fct_path)}};
      write_json_file(o.json_path, doc);
    }
    ok = rep.ok ? 1 : 0;
  }
  // Every rank exits with the verdict, so launchers (mpirun, srun) report a failed replay.
  const std::vector<Bytes> verdict = boot.allgather(Bytes{ok});
  return verdict[0].size() == 1 && verdict[0][0] == 1 ? 0 : 1;
}

}  // namespace
}  // namespace dlcnet::replay
