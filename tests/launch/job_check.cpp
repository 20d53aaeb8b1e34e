// job_check: one rank of a job that goes through every step of the job layer (launch/job.hpp)
// and checks each: join, agreement, an all-to-all connect proven by one message per ordered
// pair, clocks before, release, clocks after, the release report and a gather. Rank 0 checks
// what it gathered and that no rank started before the instant by more than its clock bound,
// and that the skew stays within --max-skew-us; it prints one JSON line with the measured
// release and every rank exits with rank 0's verdict.
//   job_check --spawn 4 --transport ucx [--release instant|barrier] [--max-skew-us N]
#include <sched.h>
#include <signal.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/clock.hpp"
#include "core/deadline.hpp"
#include "core/error.hpp"
#include "core/log_line.hpp"
#include "core/run_context.hpp"
#include "core/wire.hpp"
#include "flows/flow_report.hpp"
#include "launch/job.hpp"
#include "launch/spawn.hpp"
#include "launch/transport_select.hpp"

namespace {

using namespace dlcnet;

constexpr uint64_t kMsgBytes = 8;
// A rank's wake-up on the instant is never early; the clock model of the round before may be
// off from the one after by the drift over the wait, which is far below this here.
constexpr double kEarlySlackNs = 1000;
// Reading CLOCK_MONOTONIC right after the release's own time stamp: a preemption in between
// shows as a difference; the drift of a per-process clock over a run adds a little.
constexpr double kMonotonicSlackNs = 200'000;

struct Args {
  int spawn = 0;
  std::string transport = "ucx";
  std::string ucx_tls;
  std::string release = "instant";
  double max_skew_us = 50'000;
  double clock_shift_us = 0;  // rank r's clock is moved r times this far ahead
  int timeout_s = 60;
  double max_setup_s = 0;  // join, agree, connect and clocks_before on rank 0 (0: unchecked)
  int kill_rank = -1;
  int stop_rank = -1;         // this rank stops itself (SIGSTOP) once connected: no progress at all
  std::string idle = "auto";  // this rank kills itself once released (the others must name it)
  std::string json_path;
  ExplicitRank given;
  int rank = -1, world = -1;
};

// One message to every other rank and one from each: the transport is connected all to all.
void exchange(Transport& t, RegionId region, uint8_t* mem, int rank, int size, Idle idle) {
  int pending = 0;
  for (int p = 0; p < size; ++p) {
    if (p == rank) continue;
    if (t.post_recv(p, region, kMsgBytes * (p + 1), kMsgBytes, 100 + p) != Status::ok)
      throw Error("post_recv to rank " + std::to_string(p) + ": " + t.last_error());
    ++pending;
  }
  mem[0] = static_cast<uint8_t>(rank);
  for (int p = 0; p < size; ++p) {
    if (p == rank) continue;
    while (true) {
      const Status s = t.post_send(p, region, 0, kMsgBytes, 200 + p, true);
      if (s == Status::ok) break;
      if (s == Status::failed)
        throw Error("send to rank " + std::to_string(p) + ": " + t.last_error());
      std::array<Completion, 8> c;
      (void)t.poll(c);
    }
    ++pending;
  }
  const Deadline d = Deadline::after(std::chrono::seconds(30));
  while (pending > 0) {
    std::array<Completion, 8> c;
    const int n = t.poll(c);
    if (n < 0) throw Error("poll: " + t.last_error());
    for (int i = 0; i < n; ++i) {
      if (!c[i].ok)
        throw Error("completion from rank " + std::to_string(c[i].peer) + ": " + c[i].error);
      if (c[i].op == Op::recv) {
        const uint8_t got = mem[kMsgBytes * (c[i].peer + 1)];
        if (got != c[i].peer) {
          throw Error("message from rank " + std::to_string(c[i].peer) + " says " +
                      std::to_string(got));
        }
      }
      --pending;
    }
    if (d.expired()) throw Error("the all-to-all exchange did not finish within 30 s");
    if (n == 0 && idle != Idle::spin) sched_yield();  // ranks share CPUs: let the late ones run
  }
}

int run_rank(const Args& a, const RankEnv& env) {
  Job job(job_config(env, std::chrono::seconds(a.timeout_s)));
  job.join();
  try {
    const IdlePolicy policy = *idle_policy_from_string(a.idle);
    TransportOptions to;
    to.ucx_tls = a.ucx_tls;
    to.wakeup = policy == IdlePolicy::block;  // as dlc-replay: only when asked for
    to.connect_timeout_ms = a.timeout_s * 1000;
    TransportChoice choice = open_transport(a.transport, to);
    Transport& t = *choice.transport;
    job.agree(stable_hash(a.transport + "/" + a.release), 0, "runs another check",
              "run another check");
    const Allocation mem = t.allocate_memory(kMsgBytes * static_cast<uint64_t>(job.size() + 1));
    std::vector<int> peers;
    for (int p = 0; p < job.size(); ++p)
      if (p != job.rank()) peers.push_back(p);
    job.connect(t, peers);
    if (job.rank() == a.stop_rank) ::raise(SIGSTOP);
    const Idle idle = job.idle_for(policy, t);
    job.align_clocks(t, mem.region, idle);
    const int64_t released = job.release(*release_from_string(a.release), idle);
    // The same moment on this kernel's CLOCK_MONOTONIC: an independent check of the clock
    // models for ranks that share a kernel, through a link taken now (the best of 8
    // back-to-back readings of both clocks: a single reading carries any preemption between
    // them into the check, and 64 ranks on 2 CPUs wait milliseconds for theirs).
    const int64_t released_monotonic = released - std::llround(link_to_monotonic(8).offset_ns);
    if (job.rank() == a.kill_rank) ::raise(SIGKILL);
    exchange(t, mem.region, mem.data, job.rank(), job.size(), idle);
    job.bootstrap().barrier();
    job.align_clocks(t, mem.region, idle);
    const ReleaseReport rel = job.release_report();

    WireWriter w;
    w.u32(static_cast<uint32_t>(job.rank())).str(choice.chosen).i64(released_monotonic);
    const std::vector<Bytes> all = job.gather(w.bytes());
    bool ok = true;
    if (job.rank() == 0) {
      auto fail = [&](const std::string& what) {
        std::cerr << "job_check: FAIL: " << what << '\n';
        ok = false;
      };
      std::vector<int64_t> mono(static_cast<size_t>(job.size()));
      for (int r = 0; r < job.size(); ++r) {
        WireReader rd(all[r], "gathered blob of rank " + std::to_string(r));
        const auto said = static_cast<int>(rd.u32("rank"));
        const std::string tr = rd.str("transport");
        mono[r] = rd.i64("released on CLOCK_MONOTONIC");
        rd.expect_end();
        if (said != r)
          fail("rank " + std::to_string(r) + "'s blob says rank " + std::to_string(said));
        if (tr != choice.chosen) fail("rank " + std::to_string(r) + " ran " + tr);
      }
      for (int r = 0; r < job.size(); ++r) {
        const RankRelease& rr = rel.ranks[r];
        if (rel.mode == Release::instant && rr.late_ns < -(rr.bound_ns + kEarlySlackNs)) {
          fail("rank " + std::to_string(r) + " started " + std::to_string(-rr.late_ns) +
               " ns before the instant, beyond its clock bound of " + std::to_string(rr.bound_ns) +
               " ns");
        }
      }
      // Ranks on one kernel: the gap between their starts on rank 0's clock (through the
      // models) must be the gap on their shared CLOCK_MONOTONIC, within the two bounds.
      for (int x = 0; x < job.size(); ++x) {
        for (int y = x + 1; y < job.size(); ++y) {
          const auto& h = job.hosts();
          if (h[x].boot_id.empty() || h[x].boot_id != h[y].boot_id) continue;
          const double models = rel.ranks[y].at_ns - rel.ranks[x].at_ns;
          const double kernel = static_cast<double>(mono[y] - mono[x]);
          const double allowed = rel.ranks[x].bound_ns + rel.ranks[y].bound_ns + kMonotonicSlackNs;
          if (std::abs(models - kernel) > allowed) {
            fail("ranks " + std::to_string(x) + " and " + std::to_string(y) + " started " +
                 std::to_string(kernel * 1e-3) + " us apart on their kernel's clock but " +
                 std::to_string(models * 1e-3) + " us apart through the clock models");
          }
        }
      }
      double setup_s = 0;
      for (const PhaseTime& p : job.phases())
        if (p.name == "join" || p.name == "agree" || p.name == "connect" ||
            p.name == "clocks_before")
          setup_s += p.seconds;
      if (a.max_setup_s > 0 && setup_s > a.max_setup_s) {
        fail("set-up (join, agree, connect, clocks_before) took " + std::to_string(setup_s) +
             " s, beyond " + std::to_string(a.max_setup_s) + " s");
      }
      if (rel.skew_ns > a.max_skew_us * 1e3 + rel.skew_bound_ns) {
        fail("release skew " + std::to_string(rel.skew_ns * 1e-3) + " us exceeds " +
             std::to_string(a.max_skew_us) + " us");
      }
      nlohmann::json out = {{"ranks", job.size()},
                            {"transport", choice.chosen},
                            {"idle", to_string(idle)},
                            {"release", rel.to_json()},
                            {"clock", clocks_json(job.clock_reports())},
                            {"phases_s", job.phases_json()},
                            {"setup", job.setup_json()},
                            {"ok", ok}};
      std::cout << out.dump() << std::endl;
      if (!a.json_path.empty()) {
        OutputFile file("--json", a.json_path);
        write_json_file(file, out);
      }
    }
    return job.verdict(ok);
  } catch (const std::exception& e) {
    throw Error(job.settle_failure(e.what()));
  }
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  CLI::App app{"job_check: every step of the job layer, checked"};
  app.add_option("--spawn", a.spawn, "start this many ranks on this host");
  app.add_option("--transport", a.transport)->check(CLI::IsMember({"ucx", "verbs", "auto"}));
  app.add_option("--ucx-tls", a.ucx_tls);
  app.add_option("--release", a.release)->check(CLI::IsMember({"instant", "barrier"}));
  app.add_option("--max-skew-us", a.max_skew_us);
  app.add_option("--timeout", a.timeout_s);
  app.add_option("--json", a.json_path, "rank 0: the result line as a file too");
  app.add_option("--max-setup-s", a.max_setup_s,
                 "rank 0 fails when join, agree, connect and clocks_before took longer");
  app.add_option("--stop-rank", a.stop_rank,
                 "this rank stops itself (SIGSTOP) once connected, until someone sends SIGCONT");
  app.add_option("--idle", a.idle, "as dlc-replay's --idle")
      ->check(CLI::IsMember({"auto", "spin", "yield", "sleep", "block"}));
  app.add_option("--kill-rank", a.kill_rank,
                 "this rank kills itself (SIGKILL) once released: every other rank must name it");
  app.add_option("--clock-shift-us", a.clock_shift_us,
                 "move rank r's clock r times this far ahead: the release must undo it");
  app.add_option("--rank", a.rank);
  app.add_option("--world-size", a.world);
  app.add_option("--coordinator", a.given.coordinator);
  uint64_t token = 0;
  auto* tok = app.add_option("--job-token", token);
  CLI11_PARSE(app, argc, argv);
  try {
    if (a.spawn > 0) {
      SpawnOptions so;
      so.world_size = a.spawn;
      so.limit = std::chrono::seconds(a.timeout_s * 3);
      so.grace = std::chrono::seconds(a.timeout_s + 5);
      so.tool = "job_check";
      std::vector<std::string> rest;
      for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        if (s == "--spawn") {
          ++i;
          continue;
        }
        rest.push_back(s);
      }
      return spawn_ranks(rest, so);
    }
    if (a.rank >= 0) a.given.rank = a.rank;
    if (a.world >= 0) a.given.world_size = a.world;
    if (tok->count() > 0) a.given.job_token = token;
    const auto env = resolve_rank_env(a.given, process_env());
    if (!env) throw Error("no rank: give --spawn N, or --rank/--world-size/--coordinator");
    shift_clock_for_tests(std::llround(a.clock_shift_us * 1e3 * env->rank));
    try {
      return run_rank(a, *env);
    } catch (const std::exception& e) {
      log_line("job_check: rank " + std::to_string(env->rank) + ": error: " + e.what());
      return 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "job_check: error: " << e.what() << '\n';
    return 1;
  }
}
