#include "replay/replay_rank.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "compare/flow_export.hpp"
#include "compare/measured_fct.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/log_line.hpp"
#include "core/progress_line.hpp"
#include "core/run_context.hpp"
#include "core/stall_error.hpp"
#include "core/stop_budget.hpp"
#include "core/wire.hpp"
#include "fabric/star_links.hpp"
#include "launch/job.hpp"
#include "launch/job_context.hpp"
#include "launch/rank_cpu.hpp"
#include "launch/rank_outputs.hpp"
#include "launch/transport_select.hpp"
#include "model/calibration.hpp"
#include "replay/flow_iterations.hpp"
#include "replay/replay_console.hpp"
#include "replay/replay_engine.hpp"
#include "replay/replay_json.hpp"
#include "trace/trace_loader.hpp"

namespace dlcnet::replay {
namespace {

constexpr uint64_t kMaxPart = uint64_t{1} << 30;  // lengths travel as 32-bit in verbs

// Everything after the join: transport, plan, clocks, the replay and the reports.
int replay_joined(const RunOptions& o, const model::Calibration* calibration, Job& jl,
                  const trace::Job& job, const RankMap& map, int argc, const char* const* argv);

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
  // Read before anything is measured: a bad calibration must not cost the run.
  std::optional<model::Calibration> calibration;
  if (!o.calibration_path.empty()) calibration = model::read_calibration(o.calibration_path);
  if (!o.fct_path.empty() && !calibration) throw Error("--fct needs --calibration");
  JobConfig jc = job_config(o.env, std::chrono::seconds(o.timeout_s));
  jc.clock_samples = o.clock_samples;
  const model::Calibration* c = calibration ? &*calibration : nullptr;
  return run_job(jc, [&](Job& jl) { return replay_joined(o, c, jl, job, map, argc, argv); });
}

namespace {

int replay_joined(const RunOptions& o, const model::Calibration* calibration, Job& jl,
                  const trace::Job& job, const RankMap& map, int argc, const char* const* argv) {
  // The ranks' links (netem on a namespace star) over the whole job, from before the connect.
  std::vector<fabric::LinkReading> links_before;
  if (o.env.rank == 0 && !o.star_links.empty())
    links_before = fabric::read_star_links(o.star_links, o.env.world_size);
  RankOutputs out({o.json_path, o.records_path, o.fct_path}, o.env.rank, o.env.world_size);
  compare::FlowExport flows_out(o.env.rank == 0 ? o.export_flows : std::string());
  TransportOptions topts = o.transport;
  topts.recv_depth = std::max(topts.recv_depth, o.recv_ahead + o.clock_samples + 16);
  apply_timeout(topts, o.timeout_s);
  // Only when asked for: UCX's wake-up feature may narrow the lanes it picks.
  topts.wakeup = o.idle == IdlePolicy::block;
  TransportChoice choice = open_transport(o.transport_kind, topts);
  Transport& t = *choice.transport;
  // Before the buffers are allocated: auto also places this thread's new memory.
  const CpuBinding cpu =
      bind_rank_thread(o.cpu, choice, static_cast<unsigned>(o.env.rank),
                       "dlc-replay: rank " + std::to_string(o.env.rank), o.quiet);

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

  auto name = [&](int r) {
    return "rank " + std::to_string(r) + " (" + job.nodes[map.node_of(r)].name() + ")";
  };
  EngineConfig ec;
  ec.mode = popts.mode;
  ec.transfer = popts.transfer;
  ec.notify_after_write_completion = !t.orders_write_before_send();
  ec.recv_ahead = o.recv_ahead;
  ec.progress_timeout = stop_budget(o.timeout_s).wait;  // the rest settles the failure
  ec.idle = idle;
  ec.fault_after = o.fault_rank == o.env.rank ? o.fault_after : -1;
  ec.fault_signal = o.fault_signal;
  ec.records = out.records();
  ec.rank_name = name;
  ec.show_progress = o.env.rank == 0 && ProgressLine::wanted(stderr);
  auto context = [&] {
    nlohmann::json ctx = make_run_context("dlc-replay", argc, argv);
    add_transport_versions(ctx);
    ctx["transport"] = t.describe();
    ctx["transport_selection"] = choice.to_json();
    ctx["cpu"] = cpu.to_json();  // rank 0's
    ctx["coordinator"] = o.env.coordinator_host + ":" + std::to_string(jl.port());
    ctx["idle"] = to_string(idle);
    ctx["send_depth"] = topts.send_depth;
    ctx["recv_ahead"] = o.recv_ahead;
    return ctx;
  };
  Engine engine(plan, t, jl.bootstrap(), region, ec);
  engine.prepare();
  EngineResult result;
  try {
    result = engine.run(jl.release(o.release, idle));
  } catch (const std::exception& e) {
    // A rank stopped or failed mid-replay: every rank's records already hold what it completed
    // (the engine flushes them before it throws); rank 0's JSON says how far rank 0 got,
    // marked incomplete (the other ranks' times never reach it).
    const std::string cause = jl.settle_failure(e.what(), stalled_on(e));
    if (o.env.rank == 0 && out.json()) {
      write_each({[&] {
        const EngineProgress p = engine.progress();
        nlohmann::json doc = incomplete_report(cause, context(), jl, out);
        doc["job"] = {{"inputs", o.inputs}};
        doc["rank0"] = {{"records_done", p.done},
                        {"records_planned", p.planned},
                        {"records_written", p.records_written}};
        write_json_file(*out.json(), doc);
        log_line("dlc-replay: " + out.json()->name() + ": rank 0's " + std::to_string(p.done) +
                 " of " + std::to_string(p.planned) +
                 " records completed before the failure, marked incomplete");
      }});
    }
    throw Error(cause);
  }
  jl.bootstrap().barrier();  // the clock ping-pongs need a quiet transport
  jl.align_clocks(t, region, idle);
  const std::vector<ClockModel> clocks = jl.clock_models();
  const ReleaseReport release = jl.release_report();

  const std::vector<Bytes> posts = jl.bootstrap().alltoall(encode_post_times(plan, result));
  const RankReport mine = make_rank_report(plan, result, posts, clocks);
  std::vector<Bytes> gathered = jl.gather(encode_report(mine));

  bool ok = true;
  if (o.env.rank == 0) {
    nlohmann::json links;
    if (!o.star_links.empty()) {
      links = fabric::star_links_json(o.star_links, links_before,
                                      fabric::read_star_links(o.star_links, o.env.world_size));
    }
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
    if (!links.is_null()) std::cout << fabric::star_links_line(links) << '\n';
    std::cout << jl.phases_line() << '\n';
    std::cout.flush();
    const std::vector<int32_t> groups = o.export_flows.empty()
                                            ? std::vector<int32_t>{}
                                            : flow_iterations(rep.flows, job, map, popts, copies);
    const compare::FlowMap fm =
        compare::flow_map_of(rep.flows, groups, "dlc-replay", groups.empty() ? "" : "iteration");
    auto json = [&] {
      nlohmann::json doc = report_json(rep, job, map);
      doc["complete"] = true;
      doc["context"] = context();
      doc["phases_s"] = jl.phases_json();
      doc["setup"] = jl.setup_json();
      doc["release"] = release.to_json();
      if (!links.is_null()) doc["star_links"] = links;
      doc["files"] = out.files_json();
      if (!o.export_flows.empty()) {
        doc["files"]["flows"] = o.export_flows;
        doc["files"]["flow_map"] = compare::flow_map_path(o.export_flows);
      }
      return doc;
    };
    write_each({[&] { flows_out.write(fm); },
                [&] {
                  out.write_reports(
                      [&](std::ostream& f) {
                        model::write_fct_txt(f, compare::measured_fct(fm, *calibration));
                      },
                      json);
                }});
    ok = rep.ok;
  }
  // Every rank exits with the verdict, so launchers (mpirun, srun) report a failed replay.
  return jl.verdict(ok);
}

}  // namespace
}  // namespace dlcnet::replay
