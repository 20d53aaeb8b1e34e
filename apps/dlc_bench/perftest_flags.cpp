#include "apps/dlc_bench/perftest_flags.hpp"

#include "apps/cli_number.hpp"
#include "apps/cpu_option.hpp"
#include "apps/foreign_flags.hpp"
#include "core/error.hpp"

namespace dlcnet::bench {

void add_perftest_flags(CLI::App& sub, Options& o, PerftestFlags& f) {
  const std::string g = "perftest-compatible (docs/perftest.md)";
  sub.add_flag("-F,--CPU-freq", f.cpu_freq,
               "accepted: dlc-bench never fails on the CPU frequency (it reads a TSC only where "
               "CPUID says it is invariant)")
      ->group(g);
  sub.add_flag("-b,--bidirectional", f.bidirectional, "refused: not implemented")->group(g);
  sub.add_option("-q,--qp", f.qps, "QPs per peer: only 1 (one RC QP per peer)")
      ->check(cli::whole<uint32_t>(1, 1u << 16))
      ->capture_default_str()
      ->group(g);
  sub.add_option("-I,--inline-size,--inline_size", o.transport.inline_size,
                 "verbs: largest send that goes inline (the device may grant less)")
      ->check(cli::whole<uint32_t>(0, 1u << 16))
      ->each([&o](const std::string&) { o.transport.inline_given = true; })
      ->capture_default_str()
      ->group(g);
  sub.add_option("-m,--mtu", o.transport.path_mtu,
                 "verbs: path MTU in bytes (default: the port's active MTU)")
      ->check(CLI::IsMember({256, 512, 1024, 2048, 4096}))
      ->group(g);
  sub.add_option("-T,--tclass", o.transport.traffic_class,
                 "verbs: GRH traffic class (RoCE: DSCP << 2 | ECN)")
      ->check(cli::whole<int>(0, 255))
      ->group(g);
  sub.add_option("-S,--sl", o.transport.service_level, "verbs: service level")
      ->check(cli::whole<int>(0, 15))
      ->group(g);
  sub.add_flag("--report_gbits,--report-gbits", o.report_gbits,
               "bandwidth in Gb/s on the console (default MB/s, 1 MB = 2^20 bytes, as perftest)")
      ->group(g);
  sub.add_flag("-W,--report-counters", o.counters,
               "verbs: the port's counters and hw_counters (sysfs) before and after, as "
               "differences on the console and in the JSON")
      ->group(g);
  sub.add_flag("-H,--report-histogram", o.dump_samples,
               "lat: every latency sample on the console and in the JSON")
      ->group(g);
  cli::add_cpu_option(sub, o.cpu, false);
  cli::refuse_foreign_flags(
      sub, "perftest's flags that dlc-bench does not implement (refused)",
      {{"-c", true,
        "perftest's connection type: dlc-bench runs RC queue pairs only (the CPU "
        "is --cpu)"},
       {"-l", true, "perftest's post list: dlc-bench posts one work request at a time"},
       {"-Q", true, "perftest's CQ moderation: every work request is signaled"},
       {"-r", true, "perftest's receive queue depth: dlc-bench sizes it from -t"},
       {"-U", false,
        "perftest's unsorted latency report: lat reports percentiles, and "
        "-H every sample"},
       {"-z", false, "perftest's rdma_cm: dlc-bench's is --rdma-cm"}});
}

void check_perftest_flags(const Options& o, const PerftestFlags& f) {
  if (f.bidirectional) {
    throw Error(
        "-b: bidirectional runs are not implemented (the client drives one direction); "
        "start a second dlc-bench pair the other way round");
  }
  if (f.qps != 1) {
    throw Error("-q " + std::to_string(f.qps) +
                ": dlc-bench runs one RC QP per peer; more QPs per peer are not implemented");
  }
  if (o.dump_samples && o.spec.kind == BenchKind::bw) {
    throw Error(
        "-H: dumps latency samples, and bw has none; --records writes every message's "
        "post and completion times");
  }
}

}  // namespace dlcnet::bench
