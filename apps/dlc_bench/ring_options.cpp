#include "apps/dlc_bench/ring_options.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "apps/cli_number.hpp"
#include "apps/cli_parse.hpp"
#include "apps/foreign_flags.hpp"
#include "apps/nrank_options.hpp"
#include "apps/version/version.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "patterns/ring/collective.hpp"

namespace dlcnet::ring::cli {
namespace {

constexpr uint32_t kMaxIterations = 1'000'000;

struct Text {
  std::string min = "8", max = "32M", size, increment = "0", op = "send", segment = "1M";
  double factor = 2;
  int check = 1;
};

// A size in whole float32 elements: nccl-tests rounds a size down to its datatype, which
// would print one size and run another.
uint64_t elements(const std::string& text, const char* option) {
  const uint64_t bytes = parse_size(text, option);
  if (bytes % sizeof(float) != 0 || (bytes == 0 && std::string(option) != "-i")) {
    throw Error(std::string(option) + " " + text + ": a whole number of float32 elements (" +
                "a multiple of 4 bytes, at least 4)");
  }
  return bytes;
}

void validate(Options& o, const Text& t, bool sweep_given, bool root_given) {
  RingSpec& s = o.spec;
  const CollectiveDef& def = collective(s.collective);
  if (root_given && !def.rooted) throw Error("--root: " + s.collective + " has no root");
  if (s.in_place && !def.in_place) {
    throw Error("--in-place: " + s.collective +
                " runs out of place only (broadcast takes it: its root's input is its output)");
  }
  if (def.send_only && t.op == "write") {
    throw Error("--op write: " + s.collective +
                " runs over sends only (a rank that only sends is held back by no peer: its "
                "writes could overwrite a buffer the receiver has not yet checked)");
  }
  if (def.sizeless) {
    if (sweep_given || !t.size.empty()) {
      throw Error("-b, -e, -f, -i, -s: " + s.collective + " moves no payload (one size of 0 B)");
    }
    s.sizes = {0};
  } else if (!t.size.empty()) {
    if (sweep_given) throw Error("-s gives one size: no -b, -e, -f or -i with it");
    const uint64_t one = elements(t.size, "-s");
    s.sizes = sweep(one, one, 2, 0);
  } else {
    s.sizes =
        sweep(elements(t.min, "-b"), elements(t.max, "-e"), t.factor, elements(t.increment, "-i"));
  }
  s.segment_bytes = parse_size(t.segment, "--segment");
  if (s.segment_bytes > 0 && s.segment_bytes < 4) throw Error("--segment: 0 or at least 4 bytes");
  s.op = t.op == "write" ? Op::write : Op::send;
  s.check = t.check != 0;
  // A step's segments and their notifications in flight at once.
  if (o.job.run.transport.send_depth < 4) throw Error("--tx-depth: at least 4 for the ring");
  dlcnet::cli::finish_nrank_options(o.job);
  s.timeout_s = static_cast<uint32_t>(o.job.run.timeout_s);
  if (o.job.spawn && o.ranks < 2) throw Error("--spawn needs --ranks N (at least 2)");
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv) {
  Options o;
  RingSpec& s = o.spec;
  runner::NRankOptions& r = o.job.run;
  Text t;
  CLI::App app{
      "dlc-bench ring: the collectives of data-parallel training over N ranks, as nccl-tests "
      "runs them (all-reduce = reduce-scatter + all-gather on a ring; all-to-all as pairwise "
      "exchanges; broadcast a chain from the root; reduce a chain into the root; "
      "gather and scatter direct to or from the root; sendrecv r to r+1; barrier by "
      "dissemination, no payload), "
      "float32 sums checked element by element every iteration. Prints nccl-tests' "
      "table (time, algbw, busbw, #wrong), then every step's one-way latency and slowest link."};
  app.name("dlc-bench ring");
  std::string names;
  for (const std::string& n : collective_names()) names += (names.empty() ? "" : ", ") + n;
  app.add_option("--collective", s.collective, names)
      ->check(CLI::IsMember(collective_names()))
      ->capture_default_str();
  std::string rooted;
  for (const std::string& n : collective_names())
    if (collective(n).rooted) rooted += (rooted.empty() ? "" : ", ") + n;
  auto* root = app.add_option("--root", s.root, "a rooted collective's root rank (" + rooted + ")")
                   ->check(dlcnet::cli::whole<int>(0, dlcnet::cli::kMaxRanks - 1))
                   ->capture_default_str();
  app.add_flag("--in-place", s.in_place,
               "broadcast: the root's input is its output, as in MPI_Bcast (no copy at the "
               "root); without it the root copies its input into its output, as nccl-tests' "
               "out-of-place broadcast");
  auto* b =
      app.add_option("-b,--minbytes", t.min, "smallest size (8, 4K, 1M)")->capture_default_str();
  auto* e = app.add_option("-e,--maxbytes", t.max, "largest size")->capture_default_str();
  auto* f = app.add_option("-f,--stepfactor", t.factor, "multiply the size by this")
                ->capture_default_str();
  auto* i = app.add_option("-i,--stepbytes", t.increment, "or add this (instead of -f)");
  app.add_option("-s,--size", t.size, "one size only");
  app.add_option("-n,--iters", s.iterations, "measured iterations per size")
      ->check(dlcnet::cli::whole<uint32_t>(1, kMaxIterations))
      ->capture_default_str();
  app.add_option("-w,--warmup_iters", s.warmup, "unmeasured iterations first")
      ->check(dlcnet::cli::whole<uint32_t>(0, kMaxIterations))
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
  app.add_option("--ranks", o.ranks, "ranks (with --spawn)")
      ->check(dlcnet::cli::whole<int>(1, dlcnet::cli::kMaxRanks));
  // A rank's successor and predecessor are one peer at N = 2: a connection per direction, as
  // NCCL's, keeps the ACKs of what it receives off the connection of what it sends.
  r.transport.ucx_connection_per_direction = true;
  dlcnet::cli::add_nrank_options(
      app, o.job, {.ib_port = false, .cpu = false, .ib_dev = false, .tx_depth = false});
  dlcnet::cli::refuse_foreign_flags(
      app, "nccl-tests' flags that mean something else here (refused)",
      {{"-d", true,
        "nccl-tests' datatype: dlc-bench ring sums float32 only (the RDMA device "
        "is --ib-dev)"},
       {"-o", true, "nccl-tests' reduction: dlc-bench ring sums only"},
       {"-t", true,
        "nccl-tests' threads per process: one rank is one process here (operations "
        "in flight are --tx-depth)"},
       {"-g", true, "nccl-tests' GPUs per thread: dlc-bench ring runs on CPUs"},
       {"-a", true,
        "nccl-tests' average across ranks: the table is rank 0's view of every "
        "rank's times"},
       {"-z", true, "nccl-tests' blocking collectives: iterations run back to back"},
       {"-G", true, "nccl-tests' CUDA graphs: dlc-bench ring runs on CPUs"},
       {"-m", true, "nccl-tests' aggregated iterations: each iteration is timed alone"}});
  // Tests only: this rank adds 1 to one element of its input every iteration, so the check
  // must find it (tests/patterns/ring_*.sh).
  app.add_option("--test-corrupt-rank", s.corrupt_rank)->group("");
  add_version_flag(app, "dlc-bench");
  if (auto rc = dlcnet::cli::parse_command_line(app, "dlc-bench ring", argc - 1, argv + 1))
    return {std::nullopt, *rc};
  try {
    validate(o, t, b->count() + e->count() + f->count() + i->count() > 0, root->count() > 0);
  } catch (const Error& err) {
    dlcnet::cli::usage_error("dlc-bench ring", err.what());
    return {std::nullopt, dlcnet::cli::kExitUsage};
  }
  return {std::move(o), 0};
}

}  // namespace dlcnet::ring::cli
