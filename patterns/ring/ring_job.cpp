#include "patterns/ring/ring_job.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <set>

#include "compare/flow_export.hpp"
#include "core/clock_sync.hpp"
#include "core/error.hpp"
#include "core/log_line.hpp"
#include "core/run_context.hpp"
#include "core/stall_error.hpp"
#include "core/units.hpp"
#include "fabric/star_links.hpp"
#include "flows/flow_report.hpp"
#include "launch/job_context.hpp"
#include "launch/rank_cpu.hpp"
#include "launch/rank_outputs.hpp"
#include "launch/transport_select.hpp"
#include "patterns/ring/ring_analysis.hpp"
#include "patterns/ring/ring_engine.hpp"
#include "patterns/ring/ring_records.hpp"
#include "patterns/ring/ring_report.hpp"

namespace dlcnet::ring {
namespace {

int joined(const Options& o, Job& jl, int argc, const char* const* argv);

// Ring neighbours (everyone for all-to-all), and rank 0 with everyone for the clock alignment.
std::vector<int> peers_of(Collective c, int me, int world) {
  std::set<int> p;
  if (c == Collective::alltoall || me == 0) {
    for (int r = 0; r < world; ++r) p.insert(r);
  } else {
    p.insert({(me + 1) % world, (me + world - 1) % world, 0});
  }
  p.erase(me);
  return {p.begin(), p.end()};
}

// This size's times of every rank, at rank 0 (others get nothing).
std::vector<SizeTimes> to_root(Bootstrap& boot, const SizeTimes& mine, int me, int world) {
  std::vector<Bytes> out(static_cast<size_t>(world));
  if (me != 0) out[0] = encode({mine});
  std::vector<Bytes> got = boot.alltoall(out);
  std::vector<SizeTimes> all;
  if (me != 0) return all;
  for (int r = 0; r < world; ++r) {
    if (r == 0) {
      all.push_back(mine);
      continue;
    }
    std::vector<SizeTimes> one = decode(got[static_cast<size_t>(r)], r);
    if (one.size() != 1)
      throw ProtocolError("ring times of rank " + std::to_string(r) + ": not one size");
    all.push_back(std::move(one[0]));
  }
  return all;
}

}  // namespace

int run_rank(const Options& o, int argc, const char* const* argv) {
  if (o.env.world_size < 2) {
    throw Error("a collective needs at least 2 ranks: the world has " +
                std::to_string(o.env.world_size));
  }
  JobConfig jc = job_config(o.env, std::chrono::seconds(o.spec.timeout_s));
  jc.clock_samples = o.clock_samples;
  return run_job(jc, [&](Job& jl) { return joined(o, jl, argc, argv); });
}

namespace {

int joined(const Options& o, Job& jl, int argc, const char* const* argv) {
  const RingSpec& spec = o.spec;
  const int me = o.env.rank, world = o.env.world_size;
  const CollectiveDef& def = collective(spec.collective);
  const RegionMap map = region_map(spec, world);
  // The ranks' links (netem on a namespace star) over the whole job, from before the connect.
  std::vector<fabric::LinkReading> links_before;
  if (me == 0 && !o.star_links.empty()) links_before = fabric::read_star_links(o.star_links, world);
  RankOutputs out({o.json_path, o.records_path, {}}, me, world);
  compare::FlowExport flows_out(me == 0 ? o.export_flows : std::string());

  TransportOptions topts = o.transport;
  topts.recv_depth = std::max<uint32_t>(
      {topts.recv_depth, static_cast<uint32_t>(2 * map.max_slots + 8), o.clock_samples + 16});
  apply_timeout(topts, static_cast<int>(spec.timeout_s));
  topts.wakeup = o.idle == IdlePolicy::block;
  TransportChoice choice = open_transport(o.transport_kind, topts);
  Transport& t = *choice.transport;
  const CpuBinding cpu =
      bind_rank_thread(o.cpu, choice, static_cast<unsigned>(o.env.rank),
                       "dlc-bench ring: rank " + std::to_string(o.env.rank), o.quiet);

  const uint64_t limit = jl.agree(spec.fingerprint(), t.max_message_size(),
                                  "runs another collective (collective, sizes, -n, -w, -c, --op or "
                                  "--segment differ): start every rank "
                                  "with the same options",
                                  "run another collective (collective, sizes, -n, -w, -c, --op or "
                                  "--segment differ): start every rank "
                                  "with the same options");

  std::vector<SizeSetup> setups;
  std::vector<std::vector<Plan>> all_plans;  // rank 0: [size][rank]
  for (uint64_t bytes : spec.sizes) {
    SizeSetup s{def.layout(bytes, world), {}, {}};
    if (s.layout.max_chunk * sizeof(float) > limit) {
      throw Error("a message of " + format_size(s.layout.max_chunk * sizeof(float)) + " (size " +
                  format_size(bytes) + " over " + std::to_string(world) +
                  " ranks) exceeds the largest the transports carry (" + format_size(limit) +
                  "): lower -e");
    }
    s.plan = plan_for(def, s.layout, me);
    s.segs = cut(s.plan, spec.segment_bytes);
    if (me == 0) {
      std::vector<Plan> plans;
      for (int r = 0; r < world; ++r) plans.push_back(plan_for(def, s.layout, r));
      all_plans.push_back(std::move(plans));
    }
    setups.push_back(std::move(s));
  }

  const uint64_t phys = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                        static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
  if (map.total > phys / 2 / static_cast<uint64_t>(std::max(1, jl.ranks_on_this_host()))) {
    throw Error("rank " + std::to_string(me) + " needs " + format_size(map.total) +
                " of registered memory (input, outputs and staging for -e " +
                format_size(spec.sizes.back()) + "); with " +
                std::to_string(jl.ranks_on_this_host()) +
                " ranks on this host that is over half of its " + format_size(phys) + ": lower -e");
  }
  const RegionId clock_region = t.allocate_memory(64).region;
  const Allocation mem = t.allocate_memory(map.total);
  jl.connect(t, peers_of(spec.collective, me, world));
  const Idle idle = jl.idle_for(o.idle, t);
  jl.align_clocks(t, clock_region, idle);

  RingEngine engine(
      EngineContext{t, jl.bootstrap(), spec, def, me, mem.data, mem.region, map, idle});
  engine.prime(setups.front());
  std::unique_ptr<RingTable> table;
  if (me == 0 && !o.quiet) {
    std::cout << "# dlc-bench ring: " << to_string(spec.collective) << " on " << world
              << " ranks, --op " << to_string(spec.op) << ", transport " << choice.chosen
              << ", float sum, -n " << spec.iterations << " -w " << spec.warmup << " -c "
              << (spec.check ? 1 : 0) << '\n';
    for (int r = 0; r < world; ++r) {
      std::cout << "#  Rank " << r << " on " << jl.hosts()[static_cast<size_t>(r)].hostname << '\n';
    }
    table = std::make_unique<RingTable>(std::cout);
    table->header();
  }
  jl.release(Release::barrier, idle);

  std::vector<SizeTimes> mine;
  std::vector<std::vector<SizeTimes>> all;  // rank 0: [size][rank]
  std::vector<Row> rows;
  // Every rank's records of the sizes it completed: all of them, or those before a failure.
  auto records = [&] {
    if (!out.records()) return;
    std::vector<Plan> plans;
    for (size_t k = 0; k < mine.size(); ++k) plans.push_back(setups[k].plan);
    write_records(*out.records(), spec, me, plans, mine);
    out.records()->flush();
  };
  const auto context = [&] {
    nlohmann::json ctx =
        job_run_context("dlc-bench ring", argc, argv, t, choice, cpu, world, o.env.source, idle);
    nlohmann::json hosts = nlohmann::json::array();
    for (const HostIdentity& h : jl.hosts()) hosts.push_back(h.hostname);
    ctx["hosts"] = hosts;
    return ctx;
  };
  try {
    for (size_t k = 0; k < setups.size(); ++k) {
      mine.push_back(engine.run_size(setups[k], k + 1 < setups.size() ? &setups[k + 1] : nullptr));
      std::vector<SizeTimes> got = to_root(jl.bootstrap(), mine.back(), me, world);
      if (me != 0) continue;
      rows.push_back(make_row(def, setups[k].layout, got));
      if (table) table->row(rows.back());
      all.push_back(std::move(got));
    }
  } catch (const std::exception& e) {
    // A rank stopped or failed in the middle of the sweep: the sizes completed before are
    // written as they would have been (records on every rank; at rank 0 the JSON, marked
    // incomplete, on the clocks of the alignment before the run), then the job fails.
    const std::string cause = jl.settle_failure(e.what(), stalled_on(e));
    auto partial_json = [&] {
      if (me != 0 || !out.json() || all.empty()) return;
      std::vector<ClockModel> before;
      for (int r = 0; r < world; ++r)
        before.push_back(model_before(jl.hosts(), jl.clocks_before(), static_cast<size_t>(r)));
      std::vector<SizeResult> done;
      for (size_t k = 0; k < all.size(); ++k) {
        done.push_back(
            analyse_size(def, setups[k].layout, all_plans[k], spec.segment_bytes, all[k], before));
      }
      nlohmann::json doc = ring_json(spec, world, done);
      doc.update(incomplete_report(cause, context(), jl, out));
      write_json_file(*out.json(), doc);
      log_line("dlc-bench ring: " + out.json()->name() + ": the " + std::to_string(all.size()) +
               " size(s) completed before the failure, marked incomplete");
    };
    write_each({records, partial_json});
    throw Error(cause);
  }
  jl.bootstrap().barrier();  // the clock ping-pongs need a quiet transport
  jl.align_clocks(t, clock_region, idle);
  const std::vector<ClockModel> clocks = jl.clock_models();
  const ReleaseReport release = jl.release_report();

  // Every rank's records after rank 0 printed the results.
  if (me != 0) {
    records();
    return jl.verdict(true);
  }

  nlohmann::json links;
  if (!o.star_links.empty()) {
    links = fabric::star_links_json(o.star_links, links_before,
                                    fabric::read_star_links(o.star_links, world));
  }
  std::vector<SizeResult> results;
  for (size_t k = 0; k < all.size(); ++k) {
    results.push_back(
        analyse_size(def, setups[k].layout, all_plans[k], spec.segment_bytes, all[k], clocks));
  }
  if (!o.quiet) {
    print_footer(std::cout, rows);
    if (!results.empty()) print_steps(std::cout, results.back());
    if (!links.is_null()) std::cout << fabric::star_links_line(links) << '\n';
    print_clocks(std::cout, jl.clock_reports(), release);
    std::cout << jl.phases_line() << '\n';
    std::cout.flush();
  }
  auto export_flows = [&] {
    if (!flows_out.wanted()) return;
    // Groups are the measured iterations, numbered on across the sizes.
    std::vector<Flow> flows;
    std::vector<int32_t> groups;
    int32_t base = 0;
    for (const SizeResult& r : results) {
      int32_t runs = 0;
      for (const Flow& f : r.flows) {
        flows.push_back(f);
        groups.push_back(base + f.opnum);
        runs = std::max(runs, f.opnum + 1);
      }
      base += runs;
    }
    flows_out.write(compare::flow_map_of(flows, groups, "dlc-bench ring", "iteration"));
  };
  nlohmann::json doc = ring_json(spec, world, results);
  doc["complete"] = true;
  auto json = [&] {
    if (!out.json()) return;
    doc["context"] = context();
    doc["clock"] = clocks_json(jl.clock_reports());
    doc["release"] = release.to_json();
    doc["phases_s"] = jl.phases_json();
    doc["setup"] = jl.setup_json();
    if (!links.is_null()) doc["star_links"] = links;
    doc["files"] = out.files_json();
    if (flows_out.wanted()) {
      doc["files"]["flows"] = o.export_flows;
      doc["files"]["flow_map"] = compare::flow_map_path(o.export_flows);
    }
    write_json_file(*out.json(), doc);
  };
  write_each({records, export_flows, json});
  return jl.verdict(doc["wrong_total"].get<uint64_t>() == 0);
}

}  // namespace
}  // namespace dlcnet::ring
