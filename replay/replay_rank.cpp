#include "replay/replay_rank.hpp"

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
#include "core/wire.hpp"
#include "flows/fct.hpp"
#include "launch/job.hpp"
#include "launch/transport_select.hpp"
#include "replay/replay_console.hpp"
#include "replay/replay_engine.hpp"
#include "replay/replay_json.hpp"
#include "trace/trace_loader.hpp"

namespace dlcnet::replay {
namespace {

constexpr uint64_t kMaxPart = uint64_t{1} << 30;  // lengths travel as 32-bit in verbs

// Everything after the join: transport, plan, clocks, the replay and the reports.
int replay_joined(const RunOptions& o, Job& jl, const trace::Job& job, const RankMap& map, int argc,
                  const char* const* argv);

}  // namespace

int run_rank(const RunOptions& o, int argc, const char* const* argv) {
  const trace::Job job = trace::read_job(o.inputs);
  const RankMap map = RankMap::make(job, o.map_spec);
  if (map.world_size() != o.env.world_size) {
    throw Error("the job has " + std::to_string(map.world_size()) + " nodes to replay (" +
                std::to_string(job.num_workers) + " workers, " + std::to_string(job.num_servers) +
                " servers) but the world has " + std::to_string(o.env.world_size) +
                " ranks: start one rank per node (or use --spawn)");
  }
  JobConfig jc = job_config(o.env, std::chrono::seconds(o.timeout_s));
  jc.clock_samples = o.clock_samples;
  return run_job(jc, [&](Job& jl) { return replay_joined(o, jl, job, map, argc, argv); });
}

namespace {

int replay_joined(const RunOptions& o, Job& jl, const trace::Job& job, const RankMap& map, int argc,
                  const char* const* argv) {
  const auto timeout = std::chrono::seconds(o.timeout_s);
  TransportOptions topts = o.transport;
  topts.recv_depth = std::max(topts.recv_depth, o.recv_ahead + o.clock_samples + 16);
  topts.connect_timeout_ms = o.timeout_s * 1000;
  // Only when asked for: UCX's wake-up feature may narrow the lanes it picks.
  topts.wakeup = o.idle == IdlePolicy::block;
  TransportChoice choice = open_transport(o.transport_kind, topts);
  Transport& t = *choice.transport;

  // Every rank must replay the same job with the same options, or channels would mismatch;
  // the part size is the smallest every rank's transport can carry.
  PlanOptions popts = o.plan;
  const Copies copies = Copies::make(job, popts.iterations);
  popts.part_bytes = 0;
  uint64_t part = std::min<uint64_t>(t.max_message_size(), kMaxPart);
  if (o.part_limit > 0) part = std::min(part, o.part_limit);
  constexpr std::string_view kDiffer =
      " another job or with other options (mode, op, iterations, map): start every rank with "
      "the same job and options";
  popts.part_bytes = jl.agree(plan_fingerprint(job, map, popts, copies), part,
                              "replays" + std::string(kDiffer), "replay" + std::string(kDiffer));
  const RankPlan plan = build_rank_plan(job, map, o.env.rank, popts, copies);

  // The transport's own memory, freed with it after its teardown progressed the last messages.
  const RegionId region = t.allocate_memory(std::max<uint64_t>(plan.region_bytes, 1)).region;
  jl.connect(t, plan.peers);

  const Idle idle = jl.idle_for(o.idle, t);
  jl.align_clocks(t, region, idle);

  std::unique_ptr<RecordWriter> records;
  if (!o.records_path.empty()) {
    records =
        std::make_unique<RecordWriter>(rank_path(o.records_path, o.env.rank, o.env.world_size));
    records->flush();  // the header at least, whatever happens next
  }
  auto name = [&](int r) {
    return "rank " + std::to_string(r) + " (" + job.nodes[map.node_of(r)].name() + ")";
  };
  EngineConfig ec;
  ec.mode = popts.mode;
  ec.transfer = popts.transfer;
  ec.notify_after_write_completion = !t.orders_write_before_send();
  ec.recv_ahead = o.recv_ahead;
  ec.progress_timeout = timeout;
  ec.idle = idle;
  ec.fault_after = o.fault_rank == o.env.rank ? o.fault_after : -1;
  ec.records = records.get();
  ec.rank_name = name;
  Engine engine(plan, t, jl.bootstrap(), region, ec);
  engine.prepare();
  const EngineResult result = engine.run(jl.release(o.release, idle));
  jl.bootstrap().barrier();  // the clock ping-pongs need a quiet transport
  jl.align_clocks(t, region, idle);
  const std::vector<ClockModel> clocks = jl.clock_models();
  const ReleaseReport release = jl.release_report();

  const std::vector<Bytes> posts = jl.bootstrap().alltoall(encode_post_times(plan, result));
  const RankReport mine = make_rank_report(plan, result, posts, clocks);
  std::vector<Bytes> gathered = jl.gather(encode_report(mine));

  bool ok = true;
  if (o.env.rank == 0) {
    ReplayReport rep;
    rep.inputs = o.inputs;
    rep.options = popts;
    rep.copies = copies;
    rep.transport = choice.chosen;
    rep.transport_reason = choice.reason;
    rep.world_size = o.env.world_size;
    rep.rank_source = o.env.source;
    rep.ranks.push_back(mine);
    for (int r = 1; r < o.env.world_size; ++r) rep.ranks.push_back(decode_report(gathered[r], r));
    rep.clocks = jl.clock_reports();
    rep.release = release;
    analyse(rep, job, map);
    print_report(std::cout, rep, job, map);
    std::cout << jl.phases_line() << '\n';
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
      ctx["coordinator"] = o.env.coordinator_host + ":" + std::to_string(jl.port());
      ctx["idle"] = to_string(idle);
      ctx["send_depth"] = topts.send_depth;
      ctx["recv_ahead"] = o.recv_ahead;
      doc["context"] = ctx;
      doc["phases_s"] = jl.phases_json();
      doc["setup"] = jl.setup_json();
      doc["release"] = release.to_json();
      nlohmann::json files = nlohmann::json::array();
      for (int r = 0; r < o.env.world_size && !o.records_path.empty(); ++r) {
        files.push_back(rank_path(o.records_path, r, o.env.world_size));
      }
      doc["files"] = {
          {"records", files},
          {"fct", o.fct_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.fct_path)}};
      write_json_file(o.json_path, doc);
    }
    ok = rep.ok;
  }
  // Every rank exits with the verdict, so launchers (mpirun, srun) report a failed replay.
  return jl.verdict(ok);
}

}  // namespace
}  // namespace dlcnet::replay
