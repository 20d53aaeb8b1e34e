#include "apps/dlc_bench/ring_options.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "apps/dlc_bench/job_options.hpp"
#include "apps/flow_options.hpp"
#include "apps/star_links_option.hpp"
#include "apps/timeout_option.hpp"
#include "apps/version/version.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace dlcnet::ring::cli {
namespace {

struct Text {
  std::string min = "8", max = "32M", size, increment = "0", collective = "allreduce", op = "send",
              idle = "auto", segment = "1M";
  double factor = 2;
  int check = 1;
};

void validate(Options& o, const Text& t, bool sweep_given) {
  RingSpec& s = o.run.spec;
  s.collective = *collective_from_string(t.collective);
  if (!t.size.empty()) {
    if (sweep_given) throw Error("-s gives one size: no -b, -e, -f or -i with it");
    const uint64_t one = parse_size(t.size, "-s");
    s.sizes = sweep(one, one, 2, 0);
  } else {
    s.sizes = sweep(parse_size(t.min, "-b"), parse_size(t.max, "-e"), t.factor,
                    parse_size(t.increment, "-i"));
  }
  s.segment_bytes = parse_size(t.segment, "--segment");
  if (s.segment_bytes > 0 && s.segment_bytes < 4) throw Error("--segment: 0 or at least 4 bytes");
  s.op = t.op == "write" ? Op::write : Op::send;
  s.check = t.check != 0;
  o.run.idle = *idle_policy_from_string(t.idle);
  if (s.iterations < 1) throw Error("-n: at least 1 iteration");
  if (s.timeout_s < 1) throw Error("--timeout: at least 1 second");
  if (o.run.clock_samples < 1 || o.run.clock_samples > 100) {
    throw Error("--clock-samples: 1 to 100");
  }
  if (o.run.transport.send_depth < 4) throw Error("-t: at least 4");
  bench::finish_job_options(o.job);
  if (o.job.spawn && o.ranks < 2) throw Error("--spawn needs --ranks N (at least 2)");
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv) {
  Options o;
  ring::Options& r = o.run;
  RingSpec& s = r.spec;
  Text t;
  CLI::App app{
      "dlc-bench ring: the collectives of data-parallel training over N ranks, as nccl-tests "
      "runs them (all-reduce = reduce-scatter + all-gather on a ring; all-to-all as pairwise "
      "exchanges), float32 sums checked element by element every iteration. Prints nccl-tests' "
      "table (time, algbw, busbw, #wrong), then every step's one-way latency and slowest link."};
  app.name("dlc-bench ring");
  app.add_option("--collective", t.collective, "allreduce, reducescatter, allgather or alltoall")
      ->check(CLI::IsMember({"allreduce", "reducescatter", "allgather", "alltoall"}))
      ->capture_default_str();
  auto* b =
      app.add_option("-b,--minbytes", t.min, "smallest size (8, 4K, 1M)")->capture_default_str();
  auto* e = app.add_option("-e,--maxbytes", t.max, "largest size")->capture_default_str();
  auto* f = app.add_option("-f,--stepfactor", t.factor, "multiply the size by this")
                ->capture_default_str();
  auto* i = app.add_option("-i,--stepbytes", t.increment, "or add this (instead of -f)");
  app.add_option("-s,--size", t.size, "one size only");
  app.add_option("-n,--iters", s.iterations, "measured iterations per size")->capture_default_str();
  app.add_option("-w,--warmup_iters", s.warmup, "unmeasured iterations first")
      ->capture_default_str();
  app.add_option("-c,--check", t.check,
                 "1: new inputs every iteration and every result checked (outside the timed "
                 "part); 0: inputs once, no check (pure timing)")
      ->check(CLI::IsMember({0, 1}))
      ->capture_default_str();
  app.add_option("--op", t.op,
                 "send, or write (RDMA write into the peer's buffer, then an 8-byte send that "
                 "tells it)")
      ->check(CLI::IsMember({"send", "write"}))
      ->capture_default_str();
  app.add_option("--segment", t.segment,
                 "cut every message into segments of this many bytes and pipeline them through "
                 "the steps (0: one message per step)")
      ->capture_default_str();
  app.add_option("--ranks", o.ranks, "ranks (with --spawn)");
  bench::add_job_options(app, o.job);
  // A rank's successor and predecessor are one peer at N = 2: a connection per direction, as
  // NCCL's, keeps the ACKs of what it receives off the connection of what it sends.
  r.transport.ucx_connection_per_direction = true;
  bench::add_transport_options(app, r.transport_kind, r.transport, false);
  app.add_option("--json", r.json_path, "write the JSON report here (rank 0)");
  dlcnet::cli::add_star_links_option(app, r.star_links);
  dlcnet::cli::add_export_flows_option(app, r.export_flows);
  app.add_option("--records", r.records_path, "per-message CSV, one file per rank (%r: the rank)");
  app.add_option("--timeout", s.timeout_s, dlcnet::cli::kTimeoutHelp)->capture_default_str();
  app.add_option("--clock-samples", r.clock_samples, "ping-pongs per rank and clock estimate")
      ->capture_default_str();
  app.add_option("--idle", t.idle, "when idle: auto, spin, yield, sleep, block")
      ->check(CLI::IsMember({"auto", "spin", "yield", "sleep", "block"}))
      ->capture_default_str();
  app.add_flag("-q,--quiet", r.quiet, "only errors");
  // Tests only: this rank adds 1 to one element of its input every iteration, so the check
  // must find it (tests/patterns/ring_*.sh).
  app.add_option("--test-corrupt-rank", s.corrupt_rank)->group("");
  add_version_flag(app, "dlc-bench");
  try {
    app.parse(argc - 1, argv + 1);
  } catch (const CLI::ParseError& err) {
    const int rc = app.exit(err);
    return {std::nullopt, rc == 0 ? 0 : 2};
  }
  try {
    validate(o, t, b->count() + e->count() + f->count() + i->count() > 0);
  } catch (const Error& err) {
    std::cerr << "dlc-bench ring: " << err.what() << '\n';
    return {std::nullopt, 2};
  }
  return {std::move(o), 0};
}

}  // namespace dlcnet::ring::cli
