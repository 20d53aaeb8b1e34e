#include "patterns/fanin/fanin_job.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>

#include "compare/flow_export.hpp"
#include "compare/measured_fct.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/record.hpp"
#include "core/run_context.hpp"
#include "core/stall_error.hpp"
#include "core/stop_budget.hpp"
#include "core/units.hpp"
#include "fabric/star_links.hpp"
#include "flows/flow_report.hpp"
#include "launch/job_context.hpp"
#include "launch/rank_cpu.hpp"
#include "launch/rank_outputs.hpp"
#include "launch/transport_select.hpp"
#include "model/calibration.hpp"
#include "patterns/fanin/fanin_queue.hpp"
#include "patterns/fanin/fanin_records.hpp"
#include "patterns/fanin/fanin_report.hpp"
#include "patterns/fanin/fanin_roles.hpp"

namespace dlcnet::fanin {
namespace {

int joined(const Options& o, const model::Calibration* calibration, Job& jl, int argc,
           const char* const* argv);

}  // namespace

int run_rank(const Options& o, int argc, const char* const* argv) {
  const int workers = worker_count(o.env.world_size, o.spec);
  if (workers < 1) {
    throw Error("fanin needs a server (rank 0) and at least one worker: the world has " +
                std::to_string(o.env.world_size) + " ranks and --background " +
                std::to_string(o.spec.background));
  }
  // Read before anything is measured: a bad calibration must not cost the run.
  std::optional<model::Calibration> calibration;
  if (!o.calibration_path.empty()) calibration = model::read_calibration(o.calibration_path);
  if (!o.fct_path.empty() && !calibration) throw Error("--fct needs --calibration");
  JobConfig jc = job_config(o.env, std::chrono::seconds(o.spec.timeout_s));
  jc.clock_samples = o.clock_samples;
  const model::Calibration* c = calibration ? &*calibration : nullptr;
  return run_job(jc, [&](Job& jl) { return joined(o, c, jl, argc, argv); });
}

namespace {

int joined(const Options& o, const model::Calibration* calibration, Job& jl, int argc,
           const char* const* argv) {
  const FaninSpec& spec = o.spec;
  const int me = o.env.rank, world = o.env.world_size;
  const int workers = worker_count(world, spec);
  // The ranks' links (netem on a namespace star) over the whole job, from before the connect.
  std::vector<fabric::LinkReading> links_before;
  if (me == kServer && !o.star_links.empty())
    links_before = fabric::read_star_links(o.star_links, world);
  RankOutputs out({o.json_path, o.records_path, o.fct_path}, me, world);
  compare::FlowExport flows_out(me == kServer ? o.export_flows : std::string());
  TransportOptions topts = o.transport;
  const uint32_t k = static_cast<uint32_t>(spec.burst.size());
  topts.recv_depth = std::max({topts.recv_depth, k + 8, kBgRecvs + 8, o.clock_samples + 16});
  apply_timeout(topts, spec.timeout_s);
  topts.wakeup = o.idle == IdlePolicy::block;
  TransportChoice choice = open_transport(o.transport_kind, topts);
  Transport& t = *choice.transport;
  const CpuBinding cpu =
      bind_rank_thread(o.cpu, choice, static_cast<unsigned>(o.env.rank),
                       "dlc-bench fanin: rank " + std::to_string(o.env.rank), o.quiet);

  const uint64_t limit =
      jl.agree(spec.fingerprint(), t.max_message_size(),
               "runs another fan-in (burst, iterations, background, pull or release differ): start "
               "every rank with the same options",
               "run another fan-in (burst, iterations, background, pull or release differ): start "
               "every rank with the same options");
  const uint64_t largest = std::max(*std::max_element(spec.burst.begin(), spec.burst.end()),
                                    spec.background > 0 ? spec.bg_size : 0);
  if (largest > limit) {
    throw Error("a message of " + format_size(largest) + " exceeds the largest the transports " +
                "carry (" + format_size(limit) + "): lower -s, --bg-size or split the model");
  }

  // The server holds every worker's burst at once: say so before the allocation fails.
  const uint64_t need = data_bytes(spec, me, world);
  const uint64_t phys = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                        static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
  if (need > phys / 2) {
    throw Error("rank " + std::to_string(me) + " needs " + format_size(need) +
                " of registered memory (" + format_size(spec.burst_bytes()) + " per burst" +
                (me == kServer ? " x " + std::to_string(workers) + " workers" : std::string()) +
                "), over half of this host's " + format_size(phys) +
                ": lower -s, --burst or the workers");
  }
  const RegionId clock_region = t.allocate_memory(64).region;
  const Allocation ctl = t.allocate_memory(ctl_bytes(world));
  const Allocation data = t.allocate_memory(std::max<size_t>(data_bytes(spec, me, world), 64));
  std::vector<int> peers;
  if (me == kServer) {
    for (int r = 1; r < world; ++r) peers.push_back(r);
  } else {
    peers.push_back(kServer);
  }
  jl.connect(t, peers);
  const Idle idle = jl.idle_for(o.idle, t);
  jl.align_clocks(t, clock_region, idle);

  RoleContext c{spec, me, world, t, jl.bootstrap()};
  c.ctl = ctl.region;
  c.data = data.region;
  c.ctl_mem = ctl.data;
  c.data_mem = data.data;
  c.idle = idle;
  c.timeout = stop_budget(spec.timeout_s).wait;
  c.min_lead_ns = static_cast<int64_t>(o.lead_us * 1e3);
  const bool here = same_kernel(jl.hosts(), static_cast<size_t>(me));
  const ClockModel before = model_before(jl.hosts(), jl.clocks_before(), static_cast<size_t>(me));
  c.to_local = [here, before](int64_t ref, int64_t mono) -> int64_t {
    if (here) return mono + std::llround(link_to_monotonic(8).offset_ns);
    return std::llround(before.to_local(static_cast<double>(ref)));
  };
  const std::vector<Round> rounds = schedule(spec, workers);

  std::unique_ptr<QueueSampler> sampler;
  if (me == kServer && !o.qdisc_dev.empty()) {
    sampler = std::make_unique<QueueSampler>(o.qdisc_dev, o.qdisc_netns, o.qdisc_hz);
  }
  if (me != kServer) prepare_sender(c);
  if (sampler) sampler->start();
  jl.release(spec.release, idle);

  ServerTimes server;
  std::vector<WorkerRound> mine_w;
  BackgroundTimes mine_b;
  Bytes blob;
  // Every rank's records after the results are safe at rank 0 (and, there, on the console);
  // after a failure, those of the rounds completed before it.
  auto write_records = [&] {
    if (!out.records()) return;
    RecordWriter& w = *out.records();
    if (me == kServer) {
      write_server_records(w, spec, workers, server);
    } else if (is_worker(me, world, spec)) {
      write_worker_records(w, spec, me, mine_w);
    } else {
      write_background_records(w, spec, me, mine_b);
    }
    w.flush();
  };
  const auto context = [&] {
    return job_run_context("dlc-bench fanin", argc, argv, t, choice, cpu, world, o.env.source,
                           idle);
  };
  try {
    if (me == kServer) {
      run_server(c, rounds, server);
    } else if (is_worker(me, world, spec)) {
      run_worker(c, rounds, mine_w);
    } else {
      mine_b = run_background(c);
    }
  } catch (const std::exception& e) {
    // A rank stopped or failed in the middle of the rounds: each rank's records hold the
    // rounds it completed before; rank 0's JSON says how many, marked incomplete (the
    // workers' times never reach it: their analysis is the records').
    const std::string cause = jl.settle_failure(e.what(), stalled_on(e));
    write_each({write_records, [&] {
                  if (me != kServer || !out.json()) return;
                  nlohmann::json doc = incomplete_report(cause, context(), jl, out);
                  doc["rounds"] = rounds.size();
                  doc["rounds_completed"] = server.rounds.size();
                  write_json_file(*out.json(), doc);
                }});
    throw Error(cause);
  }
  if (me != kServer) blob = is_worker(me, world, spec) ? encode(mine_w) : encode(mine_b);
  QueueSeries queue;
  if (sampler) queue = sampler->stop();
  jl.bootstrap().barrier();  // the clock ping-pongs need a quiet transport
  jl.align_clocks(t, clock_region, idle);
  const std::vector<ClockModel> clocks = jl.clock_models();
  const ReleaseReport release = jl.release_report();

  const std::vector<Bytes> gathered = jl.gather(blob);
  if (me != kServer) {
    write_records();
    return jl.verdict(true);
  }

  std::vector<std::vector<WorkerRound>> wt;
  std::vector<BackgroundTimes> bt;
  for (int r = 1; r < world; ++r) {
    if (is_worker(r, world, spec)) {
      wt.push_back(decode_worker(gathered[static_cast<size_t>(r)], r));
    } else {
      bt.push_back(decode_background(gathered[static_cast<size_t>(r)], r));
    }
  }
  nlohmann::json links;
  if (!o.star_links.empty()) {
    links = fabric::star_links_json(o.star_links, links_before,
                                    fabric::read_star_links(o.star_links, world));
  }
  Analysis a = analyse(spec, rounds, server, wt, bt, clocks);
  if (sampler) add_queue(a, queue);
  const std::string headline =
      "dlc-bench fanin: " + std::to_string(workers) + " workers, " + spec.burst_source + " (" +
      format_size(spec.burst_bytes()) + " per worker), --op " + to_string(spec.op) + ", release " +
      to_string(spec.release) + ", transport " + choice.chosen +
      (spec.background
           ? ", background " + std::to_string(spec.background) + " x " + format_size(spec.bg_size)
           : std::string());
  if (!o.quiet) {
    print_fanin(std::cout, spec, a, headline);
    if (sampler) std::cout << queue_line(queue) << '\n';
    if (!links.is_null()) std::cout << fabric::star_links_line(links) << '\n';
    print_clocks(std::cout, jl.clock_reports(), release);
    std::cout << jl.phases_line() << '\n';
    std::cout.flush();
  }
  // Groups are the rounds (solo, warm-up and measured alike); background messages have none.
  std::vector<int32_t> groups;
  groups.reserve(a.flows.size());
  for (const Flow& f : a.flows) groups.push_back(f.key >= 0 ? f.opnum : -1);
  const compare::FlowMap fmap = compare::flow_map_of(a.flows, groups, "dlc-bench fanin", "round");
  auto json = [&] {
    nlohmann::json doc = fanin_json(spec, a);
    doc["complete"] = true;
    doc["context"] = context();
    doc["clock"] = clocks_json(jl.clock_reports());
    doc["release"] = release.to_json();
    doc["phases_s"] = jl.phases_json();
    doc["setup"] = jl.setup_json();
    if (sampler) doc["qdisc"] = queue_json(queue);
    if (!links.is_null()) doc["star_links"] = links;
    // Time zero of --export-flows' flow.txt and of --fct (the first post of any message) on
    // the clock of every other time here: a prediction's time axis maps onto this one by it.
    if (!fmap.flows.empty()) doc["flow_origin_s"] = fmap.origin_ns * 1e-9;
    doc["files"] = out.files_json();
    if (!o.export_flows.empty()) {
      doc["files"]["flows"] = o.export_flows;
      doc["files"]["flow_map"] = compare::flow_map_path(o.export_flows);
    }
    return doc;
  };
  write_each({write_records, [&] { flows_out.write(fmap); },
              [&] {
                out.write_reports(
                    [&](std::ostream& f) {
                      model::write_fct_txt(f, compare::measured_fct(fmap, *calibration));
                    },
                    json);
              }});
  return jl.verdict(true);
}

}  // namespace
}  // namespace dlcnet::fanin
