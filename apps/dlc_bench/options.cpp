#include "apps/dlc_bench/options.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "apps/cli_number.hpp"
#include "apps/cli_parse.hpp"
#include "apps/dlc_bench/perftest_flags.hpp"
#include "apps/timeout_option.hpp"
#include "apps/version/version.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "launch/transport_select.hpp"

namespace dlcnet::bench {
namespace {

// perftest's -a sweep: 2 B to 8 MiB in powers of two.
constexpr unsigned kSweepMinLog2 = 1;
constexpr unsigned kSweepMaxLog2 = 23;
// Bounds of the numeric options: a run a human would ask for, and no overflow where the values
// are combined (timeouts in ms in an int, duration + timeout + slack in seconds).
constexpr uint64_t kMaxIterations = 1'000'000'000;
constexpr double kMaxSeconds = 7 * 86400;

void validate(Options& o, const std::string& size_text, bool sweep, bool iters_given) {
  BenchSpec& s = o.spec;
  if (sweep) {
    if (!size_text.empty()) throw Error("-a and -s exclude each other: -a sweeps 2 B to 8 MiB");
    for (unsigned e = kSweepMinLog2; e <= kSweepMaxLog2; ++e) s.sizes.push_back(1ull << e);
  } else {
    uint64_t size =
        size_text.empty() ? (s.kind == BenchKind::lat ? 2 : 65536) : parse_size(size_text, "-s");
    if (size == 0) throw Error("-s: size must be at least 1 byte");
    s.sizes = {size};
  }
  if (!iters_given) s.iterations = s.kind == BenchKind::lat ? 1000 : 5000;
  if (s.duration_s > 0 && iters_given) throw Error("-D and -n exclude each other");
  if (s.iterations == 0 && s.duration_s <= 0) throw Error("-n: at least one iteration");
  if (s.duration_s < 0) throw Error("-D: duration must be positive");
  if (s.tx_depth == 0) throw Error("-t: tx depth must be at least 1");
  if (s.timeout_s <= 0) throw Error("--timeout: must be at least 1 second");
  o.transport.send_depth = s.tx_depth;
  o.transport.recv_depth = std::max<uint32_t>(512, s.tx_depth + 16);
  apply_timeout(o.transport, s.timeout_s);
  if (o.loopback && !o.server.empty()) throw Error("--loopback runs both ends: give no server");
}

}  // namespace

ParseResult parse_options(int argc, const char* const* argv) {
  Options o;
  CLI::App app{"dlc-bench: point-to-point RDMA/UCX latency and bandwidth, perftest-compatible"};
  app.require_subcommand(1);
  std::string op = "send", size_text, transport = "auto";
  bool sweep = false;
  uint64_t iters = 0;
  std::vector<CLI::Option*> iter_opts;
  PerftestFlags perftest;
  auto add_common = [&](CLI::App* sub) {
    sub->add_option("server", o.server, "server host (omit on the server)");
    sub->add_option("--op", op, "operation")->check(CLI::IsMember({"send", "write", "read"}));
    sub->add_option("-s,--size", size_text, "message size: 64, 4K, 1M (lat default 2, bw 65536)");
    sub->add_flag("-a,--all", sweep, "sweep sizes 2 B .. 8 MiB in powers of two");
    iter_opts.push_back(
        sub->add_option("-n,--iters", iters, "iterations per size (lat 1000, bw 5000)")
            ->check(dlcnet::cli::whole<uint64_t>(1, kMaxIterations)));
    sub->add_option("-D,--duration", o.spec.duration_s, "run each size this many seconds instead")
        ->check(dlcnet::cli::real(1e-3, kMaxSeconds));
    sub->add_option("--warmup", o.spec.warmup, "unmeasured iterations before each size")
        ->check(dlcnet::cli::whole<uint64_t>(0, kMaxIterations));
    sub->add_option("-t,--tx-depth", o.spec.tx_depth, "operations in flight (bw)")
        ->check(dlcnet::cli::whole<uint32_t>(1, 1u << 16));
    sub->add_option("-d,--ib-dev", o.transport.device, "RDMA device (default: first active)");
    sub->add_option("-i,--ib-port", o.transport.ib_port, "device port (default: first active)")
        ->check(dlcnet::cli::whole<int>(0, 255));
    sub->add_option("-x,--gid-index", o.transport.gid_index, "GID index (default: RoCE v2 IPv4)")
        ->check(dlcnet::cli::whole<int>(-1, 65535));
    sub->add_option("-p,--port", o.port, "TCP port of the out-of-band channel")
        ->check(dlcnet::cli::whole<uint16_t>(1));
    sub->add_flag("-R,--rdma-cm,--rdma_cm", o.transport.rdma_cm,
                  "connect queue pairs with rdma_cm");
    sub->add_option("--transport", transport, "auto, verbs or ucx")
        ->check(CLI::IsMember({"auto", "verbs", "ucx"}));
    sub->add_option("--ucx-tls", o.transport.ucx_tls, "UCX_TLS for the UCX transport");
    sub->add_flag("--loopback", o.loopback, "run server and client in this process");
    sub->add_option("--json", o.json_path, "write the JSON report here");
    sub->add_option("--records", o.records_path, "write one CSV line per message here");
    sub->add_option("--timeout", o.spec.timeout_s, dlcnet::cli::kTimeoutHelp)
        ->check(dlcnet::cli::whole<int>(1, dlcnet::cli::kMaxTimeout));
    sub->add_option("--wire-version", o.wire_version)
        ->check(dlcnet::cli::whole<uint16_t>(0))
        ->group("");  // tests only
    add_perftest_flags(*sub, o, perftest);
  };
  CLI::App* lat = app.add_subcommand("lat", "latency (ping-pong; read: round trip)");
  CLI::App* bw = app.add_subcommand("bw", "bandwidth (streaming)");
  add_common(lat);
  add_common(bw);
  // fanin and ring have parsers of their own (main.cpp hands them argv first); they are listed
  // here so that --help, the man page and the bash completion name them.
  app.add_subcommand("fanin", "the parameter-server incast, an N-rank job (fanin --help)");
  app.add_subcommand("ring", "nccl-tests' collectives over N ranks (ring --help)");
  add_version_flag(app, "dlc-bench");
  o.spec.warmup = 100;
  // An unknown subcommand is named with the known ones (CLI11 would call it an extra argument).
  const std::string first = argc > 1 ? argv[1] : "-";
  if (first[0] != '-' && first != "lat" && first != "bw") {
    cli::usage_error("dlc-bench", std::string("unknown subcommand '") + argv[1] +
                                      "': the subcommands are lat, bw, fanin and ring");
    return {std::nullopt, cli::kExitUsage};
  }
  if (auto rc = cli::parse_command_line(app, "dlc-bench", argc, argv)) return {std::nullopt, *rc};
  o.spec.kind = bw->parsed() ? BenchKind::bw : BenchKind::lat;
  o.spec.op = op == "write" ? Op::write : op == "read" ? Op::read : Op::send;
  o.transport_kind = transport;
  const bool iters_given = iter_opts[0]->count() + iter_opts[1]->count() > 0;
  if (iters_given) o.spec.iterations = iters;
  try {
    validate(o, size_text, sweep, iters_given);
    check_perftest_flags(o, perftest);
  } catch (const Error& e) {
    cli::usage_error("dlc-bench", e.what());
    return {std::nullopt, cli::kExitUsage};
  }
  return {std::move(o), 0};
}

}  // namespace dlcnet::bench
