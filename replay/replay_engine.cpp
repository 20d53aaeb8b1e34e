// Engine set-up, the main loop and the bookkeeping around it (records, liveness, watchdog).
// Posting and completions are in replay_engine_datapath.cpp.
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <functional>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stall_error.hpp"
#include "core/stop_budget.hpp"
#include "replay/replay_engine.hpp"
#include "replay/replay_engine_internal.hpp"

namespace dlcnet::replay {

namespace {

// Records are written when the next post is at least this far away, so that formatting a CSV
// line never delays a post; and at least every kFlushEvery anyway.
constexpr int64_t kWriteSlackNs = 50'000;
constexpr int64_t kFlushEveryNs = 100'000'000;
// A flush is a write(2) of up to a megabyte: done when the next post is this far away, or
// regardless once it is this late, so a run that never idles still keeps its records.
constexpr int64_t kFlushSlackNs = 500'000;
constexpr int64_t kFlushLatestNs = 500'000'000;
constexpr int64_t kCheckPeersEveryNs = 50'000'000;
// Empty polls before yielding the CPU, and the least idle time ahead that makes it worth it.
constexpr uint32_t kIdleSpinsBeforeYield = 64;
constexpr int64_t kYieldSlackNs = 20'000;
// Sleep: only after this long without activity (a burst is served spinning), in naps of
// kNapNs, and not when a post is due within two naps.
constexpr int64_t kSleepAfterNs = 200'000;
constexpr int64_t kNapNs = 50'000;
// Block: wait for the transport's events until kWakeMarginNs before the next post is due, then
// spin; the margin covers a timed wake-up's lateness on a busy host (tens of microseconds in a
// virtual machine). Each wait is at most kBlockMaxNs, so housekeeping still runs.
constexpr int64_t kWakeMarginNs = 150'000;
constexpr int64_t kBlockMaxNs = 10'000'000;

void nap() noexcept {
  timespec ts{0, kNapNs};
  nanosleep(&ts, nullptr);
}

}  // namespace

Engine::Engine(const RankPlan& plan, Transport& t, Bootstrap& boot, RegionId region,
               EngineConfig cfg)
    : plan_(plan), t_(t), boot_(boot), region_(region), cfg_(std::move(cfg)) {
  if (!cfg_.rank_name) cfg_.rank_name = [](int r) { return "rank " + std::to_string(r); };
}

void Engine::prepare() {
  const size_t n = plan_.entries.size();
  const size_t world = plan_.sends_to.size();
  res_.times.assign(n, EntryTimes{});
  res_.sched_error_s.reserve(plan_.sends);
  res_.order_hold_s.reserve(plan_.sends);
  deps_left_.assign(n, 0);
  dep_max_.assign(n, 0);
  parts_posted_.assign(n, 0);
  parts_done_.assign(n, 0);
  flags_.assign(n, 0);
  next_send_.assign(world, 0);
  next_notify_.assign(world, 0);
  next_recv_.assign(world, 0);
  recvs_outstanding_.assign(world, 0);
  arrived_.assign(world, 0);
  sends_done_.assign(world, 0);
  last_post_.assign(world, INT64_MIN);
  pending_flag_.assign(world, 0);
  pending_.reserve(world);
  heap_.reserve(n);
  work_.reserve(n);
  to_write_.reserve(n);
  notifies_left_ = cfg_.transfer == Transfer::write ? plan_.sends : 0;
  for (size_t p = 0; p < world; ++p) post_receives(static_cast<int>(p));
}

EngineResult Engine::run(int64_t start_ns) {
  res_.start_ns = start_ns;
  // Block's timed waits end when asked, not up to 50 us later (the default timer slack).
  if (cfg_.idle == Idle::block) prctl(PR_SET_TIMERSLACK, 1UL);
  last_progress_ = last_flush_ = last_check_ = last_activity_ = start_ns;
  // This rank's sends and receives done, on a terminal (rank 0 only: see replay_rank.cpp).
  ProgressLine progress(stderr, "dlc-replay " + cfg_.rank_name(boot_.rank()), plan_.entries.size(),
                        start_ns, 0, cfg_.show_progress);
  progress_ = &progress;
  try {
    const bool timed = plan_.open_loop;
    for (uint32_t e = 0; e < plan_.entries.size(); ++e) {
      deps_left_[e] = timed ? 0 : static_cast<uint32_t>(plan_.timeline.deps_of(e).size());
      dep_max_[e] = start_ns;
    }
    for (uint32_t e = 0; e < plan_.entries.size(); ++e) {
      if (deps_left_[e] == 0) on_deps_done(e);
    }
    drain_work();
    loop();
  } catch (...) {
    // Keep what completed: a crash of another rank must not cost this one its records.
    if (cfg_.records) {
      try {
        write_records(to_write_.size());
        cfg_.records->flush();
      } catch (const std::exception&) {
        // the original error matters more
      }
    }
    progress_ = nullptr;
    throw;
  }
  progress_ = nullptr;
  progress.finish();
  write_records(to_write_.size());
  if (cfg_.records) cfg_.records->flush();
  return std::move(res_);
}

void Engine::loop() {
  std::array<Completion, 32> c;
  const size_t total = plan_.entries.size();
  while (done_ < total || inflight_ > 0 || notifies_left_ > 0) {
    const int n = t_.poll(c);
    int64_t now = now_ns();
    if (n < 0) fail(t_.last_error());
    for (int i = 0; i < n; ++i) on_completion(c[static_cast<size_t>(i)], now);
    bool busy_iteration = n > 0;
    while (!heap_.empty() && heap_.front().first <= now) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      const uint32_t e = heap_.back().second;
      heap_.pop_back();
      flags_[e] |= kDue;
      post_channel(plan_.entries[e].peer);
      busy_iteration = true;
    }
    if (!pending_.empty()) retry_pending();
    if (busy_iteration) {
      last_progress_ = last_activity_ = now;
      idle_spins_ = 0;
    }
    housekeeping(now);
    progress_->tick(done_, now);
    if (busy_iteration || cfg_.idle == Idle::spin) continue;
    const int64_t ahead = heap_.empty() ? INT64_MAX : heap_.front().first - now;
    if (cfg_.idle == Idle::block) {
      if (++idle_spins_ >= kIdleSpinsBeforeYield && ahead > kWakeMarginNs) {
        idle_spins_ = 0;
        t_.wait_event(std::min(ahead - kWakeMarginNs, kBlockMaxNs));
      }
    } else if (cfg_.idle == Idle::yield) {
      if (++idle_spins_ >= kIdleSpinsBeforeYield && ahead > kYieldSlackNs) {
        idle_spins_ = 0;
        sched_yield();
      }
    } else if (now - last_activity_ > kSleepAfterNs && ahead > 2 * kNapNs) {
      nap();
    }
  }
  res_.end_ns = now_ns();
}

void Engine::housekeeping(int64_t now) {
  if (cfg_.records && written_ < to_write_.size() &&
      (heap_.empty() || heap_.front().first - now > kWriteSlackNs)) {
    write_records(16);
  }
  const bool slack = heap_.empty() || heap_.front().first - now > kFlushSlackNs;
  if (cfg_.records &&
      ((now - last_flush_ > kFlushEveryNs && slack) || now - last_flush_ > kFlushLatestNs)) {
    write_records(to_write_.size());
    cfg_.records->flush();
    last_flush_ = now;
  }
  if (now - last_check_ > kCheckPeersEveryNs) {
    last_check_ = now;
    // A post still to come (think time, a timed gap) is not a stall.
    if (!heap_.empty()) last_progress_ = now;
    const int64_t limit = std::chrono::nanoseconds(cfg_.progress_timeout).count();
    check_peers_during_wait([this] { boot_.check_peers(); }, now - last_progress_, limit,
                            [this] {
                              Awaited a = awaited();
                              return std::pair("waiting for " + a.what, std::move(a.peers));
                            });
    if (now - last_progress_ > limit) no_progress();
  }
}

void Engine::write_records(size_t max) {
  if (!cfg_.records) {
    written_ = to_write_.size();
    return;
  }
  for (size_t k = 0; k < max && written_ < to_write_.size(); ++k, ++written_) {
    const uint32_t e = to_write_[written_];
    const PlanEntry& pe = plan_.entries[e];
    const EntryTimes& t = res_.times[e];
    MessageRecord r;
    r.seq = res_.records_written++;
    r.bytes = pe.bytes;
    r.src = pe.send ? plan_.rank : pe.peer;
    r.dst = pe.send ? pe.peer : plan_.rank;
    r.op = pe.send ? (cfg_.transfer == Transfer::write ? Op::write : Op::send) : Op::recv;
    r.signaled = true;
    r.planned_ns = t.planned_ns;
    r.post_ns = t.post_ns;
    r.complete_ns = pe.send ? t.complete_ns : -1;
    r.arrival_ns = t.arrival_ns;
    r.key = pe.key;
    r.opnum = pe.msg_opnum;
    cfg_.records->write(r);
  }
}

void Engine::fail(const std::string& what) {
  throw Error(what);
}

Engine::Awaited Engine::awaited() const {
  std::string waiting;
  auto add = [&](const std::string& s) { waiting += (waiting.empty() ? "" : "; ") + s; };
  std::vector<int> peers;  // the ranks a message is missing from or a send is stuck to
  for (size_t p = 0; p < plan_.sends_to.size(); ++p) {
    const std::string who = cfg_.rank_name(static_cast<int>(p));
    const size_t missing = plan_.recvs_from[p].size() - arrived_[p];
    if (missing > 0) {
      add(std::to_string(missing) + " messages from " + who);
    }
    const size_t unsent = plan_.sends_to[p].size() - sends_done_[p];
    if (unsent > 0 && next_send_[p] > sends_done_[p]) {
      add(std::to_string(next_send_[p] - sends_done_[p]) + " sends to " + who + " not completed");
    }
    if (missing > 0 || (unsent > 0 && next_send_[p] > sends_done_[p]))
      peers.push_back(static_cast<int>(p));
  }
  return {waiting.empty() ? std::string("nothing?") : waiting, peers};
}

void Engine::no_progress() {
  Awaited a = awaited();
  throw StallError("no progress for " + seconds_text(cfg_.progress_timeout) + " (" +
                       std::to_string(done_) + " of " + std::to_string(plan_.entries.size()) +
                       " records done); waiting for " + a.what,
                   std::move(a.peers));
}

}  // namespace dlcnet::replay
