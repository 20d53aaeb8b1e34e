#include "launch/job.hpp"

#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/rank_list.hpp"
#include "core/stall_error.hpp"
#include "core/wire.hpp"
#include "launch/agreement_fields.hpp"
#include "launch/coordinator_bind.hpp"

namespace dlcnet {
namespace {

// The instant is set at least this far ahead, and at least kLeadFactor times the barrier just
// before it took at rank 0: the broadcast that names it takes about as long to reach the last
// rank, so every rank hears of the instant before it passes.
constexpr int64_t kMinLeadNs = 10'000'000;
constexpr int64_t kLeadFactor = 4;
// A rank waiting for the instant sleeps until this long before it, then polls the clock: a
// spinning rank has a CPU of its own and wakes early; the others wake close to the instant,
// since they would otherwise take turns at polling.
constexpr int64_t kSpinBeforeNs = 200'000;
constexpr int64_t kWakeBeforeNs = 20'000;

void wait_until(int64_t target_ns, Idle idle) {
  // Sleep on a kernel timer (absolute, on CLOCK_MONOTONIC, with the process's timer slack cut
  // from 50 us to 1 ns) until just before the instant, then poll the clock. Ranks that share
  // CPUs all sleep until then instead of taking turns at spinning.
  const int64_t wake_local = target_ns - (idle == Idle::spin ? kSpinBeforeNs : kWakeBeforeNs);
  if (wake_local > now_ns()) {
    const OffsetEstimate link = link_to_monotonic(8);
    const int64_t wake = wake_local - std::llround(link.offset_ns);
    const unsigned long slack = static_cast<unsigned long>(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    timespec ts{static_cast<time_t>(wake / 1'000'000'000), static_cast<long>(wake % 1'000'000'000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
    prctl(PR_SET_TIMERSLACK, slack, 0, 0, 0);
  }
  // Yielding, not spinning, where ranks share CPUs: a spinner holds the CPU another rank needs
  // to see its own instant.
  const bool yield = idle != Idle::spin;
  while (now_ns() < target_ns) {
    if (yield) sched_yield();
  }
}

}  // namespace

JobConfig job_config(const RankEnv& env, std::chrono::milliseconds timeout) {
  JobConfig c;
  c.rank = env.rank;
  c.world_size = env.world_size;
  c.coordinator_host = env.coordinator_host;
  c.port = env.port;
  c.job_token = env.job_token;
  c.rank_source = env.source;
  c.timeout = timeout;
  return c;
}

std::optional<IdlePolicy> idle_policy_from_string(std::string_view s) noexcept {
  if (s == "auto") return IdlePolicy::automatic;
  if (s == "spin") return IdlePolicy::spin;
  if (s == "yield") return IdlePolicy::yield;
  if (s == "sleep") return IdlePolicy::sleep;
  if (s == "block") return IdlePolicy::block;
  return std::nullopt;
}

Job::Job(JobConfig cfg) : cfg_(std::move(cfg)), budget_(stop_budget(cfg_.timeout)) {
  TcpBootstrapConfig bc;
  bc.rank = cfg_.rank;
  bc.size = cfg_.world_size;
  bc.coordinator_host = cfg_.coordinator_host;
  if (cfg_.rank == 0 && cfg_.world_size > 1) {
    const char* over = std::getenv("DLCNET_COORDINATOR_BIND");
    const CoordinatorBind bind = coordinator_bind(cfg_.coordinator_host, over ? over : "");
    bc.bind_host = cfg_.bind_host.empty() ? bind.host : cfg_.bind_host;
    if (cfg_.bind_host.empty() && !bind.why.empty()) {
      std::fprintf(stderr, "rank 0: %s\n", bind.why.c_str());
    }
  }
  bc.port = cfg_.port;
  bc.job_token = cfg_.job_token;
  // --timeout is the whole stop: the waits give up after its wait limit, and settling the
  // failure fits in the rest (core/stop_budget.hpp).
  bc.join_timeout = budget_.wait;
  bc.op_timeout = cfg_.op_timeout.count() > 0 ? cfg_.op_timeout : budget_.wait;
  bc.report_window = budget_.report_window;
  bc.verdict_wait = budget_.verdict_wait;
  bc.wire_version = cfg_.wire_version;
  try {
    boot_ = std::make_unique<TcpBootstrap>(bc);
  } catch (const Error& e) {
    if (cfg_.rank != 0) throw;
    throw Error(std::string(e.what()) + " (rank 0 listens on the coordinator's address " +
                bc.bind_host + ", where the other ranks connect: run rank 0 on that host, or " +
                "set DLCNET_COORDINATOR_BIND)");
  }
}

Job::~Job() = default;

uint16_t Job::port() const noexcept {
  return boot_->port();
}

Bootstrap& Job::bootstrap() noexcept {
  return *boot_;
}

void Job::phase_begins(const char* name) {
  boot_->set_phase(name);
}

void Job::phase_done(const char* name, int64_t since_ns) {
  phases_.push_back({name, ns_to_s(now_ns() - since_ns)});
}

void Job::join() {
  const int64_t t0 = now_ns();
  phase_begins("join");
  boot_->join();
  hosts_ = exchange_identities(*boot_);
  phase_done("join", t0);
}

uint64_t Job::agree(uint64_t fingerprint, uint64_t limit, std::string_view one_differs,
                    std::string_view many_differ, std::string_view fields) {
  const int64_t t0 = now_ns();
  phase_begins("agree");
  WireWriter w;
  w.u64(fingerprint).u64(limit);
  const std::vector<Bytes> all = boot_->allgather(w.bytes());
  uint64_t least = limit;
  std::vector<int> differ;
  for (size_t r = 0; r < all.size(); ++r) {
    WireReader rd(all[r], "agreement of rank " + std::to_string(r));
    const uint64_t fp = rd.u64("fingerprint");
    least = std::min(least, rd.u64("limit"));
    rd.expect_end();
    if (fp != fingerprint) differ.push_back(static_cast<int>(r));
  }
  if (!differ.empty()) {
    std::string detail;
    if (!fields.empty()) {
      // Only now, and by every rank alike: the options behind the fingerprints.
      const std::vector<Bytes> text = boot_->allgather(Bytes(fields.begin(), fields.end()));
      const Bytes& first = text[static_cast<size_t>(differ.front())];
      detail = field_differences(
          fields, std::string_view(reinterpret_cast<const char*>(first.data()), first.size()),
          differ.front());
    }
    throw Error((differ.size() == 1 ? "rank " : "ranks ") + rank_list(differ) + " " +
                std::string(differ.size() == 1 ? one_differs : many_differ) + detail);
  }
  phase_done("agree", t0);
  return least;
}

void Job::connect(Transport& t, std::span<const int> peers) {
  const int64_t t0 = now_ns();
  phase_begins("connect");
  t.connect(*boot_, peers);
  connected_ = &t;
  phase_done("connect", t0);
}

Idle Job::idle_for(IdlePolicy p, const Transport& t) const {
  if (p == IdlePolicy::spin) return Idle::spin;
  if (p == IdlePolicy::yield) return Idle::yield;
  if (p == IdlePolicy::sleep) return Idle::sleep;
  if (p == IdlePolicy::block) return t.can_wait_event() ? Idle::block : Idle::yield;
  // More spinning ranks than CPUs starve each other; as many as CPUs starve the kernel's own
  // work where the transport needs it (Soft-RoCE's protocol processing in kernel threads, TCP's
  // softirqs): yield then. Over shared memory alone as many may spin, as Open MPI's bound ranks
  // do (2 ranks, 1 MiB over UCX sm here: 1.4x the busbw of yielding). Yielding costs a system
  // call when nothing else wants the CPU. (Blocking on events used half the CPU time but posted
  // later on this project's 2-CPU virtual machine, whose wake-ups are slow: docs/replay.md.)
  const long cpus = static_cast<long>(std::max(1u, std::thread::hardware_concurrency()));
  const long ranks = ranks_on_this_host();
  return ranks > cpus || (ranks == cpus && t.kernel_carries_traffic()) ? Idle::yield : Idle::spin;
}

void Job::align_clocks(Transport& t, RegionId region, Idle idle) {
  const int64_t t0 = now_ns();
  if (rounds_ == 1 && released_at_ != 0) phase_done("run", released_at_);
  if (rounds_ >= 2) throw Error("job: clocks are aligned twice, before and after the run");
  phase_begins(rounds_ == 0 ? "clocks_before" : "clocks_after");
  ClockRound& round = rounds_ == 0 ? before_ : after_;
  round = measure_offsets(t, *boot_, region, cfg_.clock_samples, budget_.wait, idle, &hosts_);
  phase_done(rounds_ == 0 ? "clocks_before" : "clocks_after", t0);
  ++rounds_;
}

int64_t Job::release(Release mode, Idle idle) {
  const int64_t t0 = now_ns();
  phase_begins("release");
  release_mode_ = mode;
  if (mode == Release::barrier) {
    boot_->barrier();
    released_at_ = now_ns();
  } else {
    if (rounds_ < 1) throw Error("job: a release at an instant needs the clocks aligned first");
    // Rank 0 times a barrier, then names an instant far enough ahead for its broadcast.
    const int64_t b0 = now_ns();
    boot_->barrier();
    const int64_t lead = std::max(kMinLeadNs, kLeadFactor * (now_ns() - b0));
    // The instant on rank 0's clock, and on its kernel's CLOCK_MONOTONIC through a link taken
    // now: ranks on that kernel convert through a fresh link of their own, which no drift
    // since the clock round can skew (a per-process TSC scale is off by up to its calibration
    // bound, core/tsc_calibration.hpp). Ranks on other kernels go through the round before.
    WireWriter w;
    if (cfg_.rank == 0) {
      const int64_t target = now_ns() + lead;
      const OffsetEstimate link = link_to_monotonic(8);
      w.i64(target).i64(lead).i64(target - std::llround(link.offset_ns));
    }
    const std::vector<Bytes> all = boot_->allgather(w.bytes());
    WireReader rd(all[0], "release instant of rank 0");
    const int64_t target = rd.i64("instant");
    lead_ns_ = static_cast<double>(rd.i64("lead"));
    const int64_t target_monotonic = rd.i64("instant on CLOCK_MONOTONIC");
    rd.expect_end();
    target_ns_ = static_cast<double>(target);
    int64_t local_target = 0;
    if (same_kernel(hosts_, static_cast<size_t>(cfg_.rank))) {
      local_target = target_monotonic + std::llround(link_to_monotonic(8).offset_ns);
    } else {
      const ClockModel m = model_before(hosts_, before_, static_cast<size_t>(cfg_.rank));
      local_target = std::llround(m.to_local(target_ns_));
    }
    // Bounded like every other wait: an instant further away than the job's timeout means a
    // clock model gone wrong, not a long lead.
    const int64_t away = local_target - now_ns();
    if (away > std::chrono::nanoseconds(budget_.wait).count()) {
      throw Error("the release instant is " + std::to_string(away / 1'000'000) +
                  " ms away on this rank's clock (lead " + std::to_string(lead_ns_ * 1e-6) +
                  " ms): the clock alignment with rank 0 is wrong");
    }
    wait_until(local_target, idle);
    released_at_ = now_ns();
  }
  phase_done("release", t0);
  phase_begins("run");
  return released_at_;
}

ReleaseReport Job::release_report() {
  if (rounds_ < 2) throw Error("job: the release report needs the clocks aligned after the run");
  phase_begins("release_report");
  WireWriter w;
  w.i64(released_at_);
  const std::vector<Bytes> all = boot_->allgather(w.bytes());
  const std::vector<ClockModel> models = clock_models();
  ReleaseReport rep;
  rep.mode = release_mode_;
  rep.lead_ns = lead_ns_;
  for (size_t r = 0; r < all.size(); ++r) {
    WireReader rd(all[r], "release time of rank " + std::to_string(r));
    const int64_t at = rd.i64("released at");
    rd.expect_end();
    RankRelease rr;
    rr.at_ns = models[r].to_reference(at);
    rr.bound_ns = models[r].uncertainty_ns;
    rep.ranks.push_back(rr);
  }
  size_t first = 0, last = 0;
  for (size_t r = 0; r < rep.ranks.size(); ++r) {
    if (rep.ranks[r].at_ns < rep.ranks[first].at_ns) first = r;
    if (rep.ranks[r].at_ns > rep.ranks[last].at_ns) last = r;
  }
  rep.target_ns = release_mode_ == Release::instant ? target_ns_ : rep.ranks[first].at_ns;
  for (RankRelease& rr : rep.ranks) rr.late_ns = rr.at_ns - rep.target_ns;
  rep.skew_ns = rep.ranks[last].at_ns - rep.ranks[first].at_ns;
  rep.skew_bound_ns = rep.ranks[last].bound_ns + (first == last ? 0 : rep.ranks[first].bound_ns);
  rep.latest_rank = static_cast<int>(last);
  return rep;
}

std::vector<Bytes> Job::gather(const Bytes& mine) {
  const int64_t t0 = now_ns();
  phase_begins("gather");
  std::vector<Bytes> to_root(static_cast<size_t>(cfg_.world_size));
  if (cfg_.rank == 0) {
    to_root[0] = {};
  } else {
    to_root[0] = mine;
  }
  std::vector<Bytes> got = boot_->alltoall(to_root);
  if (cfg_.rank == 0) {
    got[0] = mine;
  } else {
    got.clear();
  }
  phase_done("gather", t0);
  return got;
}

int Job::verdict(bool ok) {
  phase_begins("verdict");
  const std::vector<Bytes> v = boot_->allgather(Bytes{static_cast<uint8_t>(ok ? 1 : 0)});
  if (connected_ != nullptr) {
    phase_begins("disconnect");
    std::exchange(connected_, nullptr)
        ->disconnect(cfg_.op_timeout.count() > 0 ? cfg_.op_timeout : budget_.wait);
    boot_->barrier();
  }
  return v[0].size() == 1 && v[0][0] == 1 ? 0 : 1;
}

std::string Job::settle_failure(const std::string& mine,
                                const std::vector<int>& waited_on) noexcept {
  return boot_->settle_failure(mine, waited_on);
}

std::vector<ClockModel> Job::clock_models() const {
  return dlcnet::clock_models(hosts_, before_, after_);
}

std::vector<ClockReport> Job::clock_reports() const {
  return dlcnet::clock_reports(hosts_, before_, after_);
}

// The phases' seconds before the measured phase ("run") and after it; all of them are before
// it while it has not begun.
std::pair<double, double> Job::around_run() const {
  double before = 0, after = 0;
  bool ran = false;
  for (const PhaseTime& p : phases_) {
    if (p.name == "run")
      ran = true;
    else
      (ran ? after : before) += p.seconds;
  }
  return {before, after};
}

std::string Job::phases_line() const {
  std::string line = "# job phases on rank " + std::to_string(cfg_.rank) + ":";
  for (size_t k = 0; k < phases_.size(); ++k) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s %s %.3f s", k == 0 ? "" : ",", phases_[k].name.c_str(),
                  phases_[k].seconds);
    line += buf;
  }
  char tail[64];
  std::snprintf(tail, sizeof tail, " (%d ranks; set-up %.3f s)", cfg_.world_size,
                around_run().first);
  return line + tail;
}

nlohmann::json Job::phases_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const PhaseTime& p : phases_) j[p.name + "_s"] = p.seconds;
  return j;
}

nlohmann::json Job::setup_json() const {
  nlohmann::json j = phases_json();
  const auto [before, after] = around_run();
  j["setup_s"] = before;
  j["wrapup_s"] = after;
  j["ranks"] = cfg_.world_size;
  const BootstrapTraffic t = boot_->traffic();
  j["bootstrap_frames_sent"] = t.frames_sent;
  j["bootstrap_frames_received"] = t.frames_received;
  return j;
}

int run_job(const JobConfig& config, const std::function<int(Job&)>& body) {
  Job job(config);
  job.join();
  try {
    return body(job);
  } catch (const std::exception& e) {
    throw Error(job.settle_failure(e.what(), stalled_on(e)));
  }
}

}  // namespace dlcnet
