#include "patterns/rank_wire.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>

#include "core/clock.hpp"
#include "core/deadline.hpp"
#include "core/error.hpp"
#include "core/stall_error.hpp"
#include "core/stop_budget.hpp"

namespace dlcnet {
namespace {
constexpr int64_t kCheckPeersNs = 10'000'000;
}  // namespace

RankWire::RankWire(Transport& t, Bootstrap& boot, Idle idle, std::chrono::milliseconds limit,
                   Handler on)
    : t_(t), boot_(boot), idle_(idle), limit_(limit), on_(std::move(on)) {}

void RankWire::poll_once() {
  std::array<Completion, 32>& c = polled_;
  const int n = t_.poll(c);
  if (n < 0) throw Error("transport: " + t_.last_error());
  const int64_t now = n > 0 ? now_ns() : 0;  // the time the completions were seen
  for (int i = 0; i < n; ++i) {
    if (!c[i].ok) {
      throw Error(std::string(to_string(c[i].op)) + " with rank " + std::to_string(c[i].peer) +
                  " failed: " + (c[i].error ? c[i].error : "?"));
    }
    on_(c[i], now);
  }
  if (n > 0) {
    spins_ = 0;
    return;
  }
  ++spins_;
  if (idle_ == Idle::spin) return;
  // Every empty poll, as Open MPI's ranks do when oversubscribed: 4 ranks of a scatter over tcp
  // on 2 CPUs took 386 to 402 us per 1 MiB iteration against 575 to 1013 with a yield at every
  // 64th (3 paired runs, 2026-11-28). Undone once (65e83db) because compare_star failed with it;
  // that failure was the calibration's bw rate swinging (docs/compare.md), not this: with the
  // star's rate compare_star's rounds are +0.3 to +0.5 % either way.
  sched_yield();
  if (idle_ == Idle::sleep && spins_ > 4096) {
    timespec ts{0, 50'000};
    nanosleep(&ts, nullptr);
  }
}

template <class Post>
int64_t RankWire::post(int peer, const char* what, Post p) {
  const Deadline d = Deadline::after(limit_);
  for (;;) {
    const int64_t at = now_ns();
    const Status s = p();
    if (s == Status::ok) return at;
    if (s == Status::failed) {
      throw Error(std::string(what) + " to rank " + std::to_string(peer) + ": " + t_.last_error());
    }
    poll_once();
    if (d.expired()) {
      throw StallError(std::string(what) + " to rank " + std::to_string(peer) +
                           ": its queue stayed full for " + seconds_text(limit_),
                       {peer});
    }
  }
}

int64_t RankWire::send(int peer, RegionId region, size_t offset, size_t length, uint64_t id) {
  return post(peer, "send", [&] { return t_.post_send(peer, region, offset, length, id, true); });
}

int64_t RankWire::write(int peer, RegionId region, size_t offset, size_t length,
                        size_t remote_offset, uint64_t id) {
  return post(peer, "write",
              [&] { return t_.post_write(peer, region, offset, length, remote_offset, id, true); });
}

void RankWire::recv(int peer, RegionId region, size_t offset, size_t length, uint64_t id) {
  if (t_.post_recv(peer, region, offset, length, id) != Status::ok) {
    throw Error("post_recv for rank " + std::to_string(peer) + ": " + t_.last_error());
  }
}

void RankWire::wait(const std::function<bool()>& done, const std::function<std::string()>& what,
                    int64_t rounds, const std::function<std::vector<int>()>& peers) {
  const auto limit = limit_ * std::max<int64_t>(1, rounds);
  const Deadline d = Deadline::after(limit);
  const int64_t start = now_ns();
  for (uint32_t i = 0; !done(); ++i) {
    poll_once();
    if ((i & 255) != 255) continue;
    check_peers_during_wait(
        [this] { check_peers(); }, now_ns() - start, std::chrono::nanoseconds(limit).count(),
        [&] { return std::pair(what(), peers ? peers() : std::vector<int>()); });
    if (d.expired()) {
      throw StallError(what() + " within " + seconds_text(limit) +
                           (rounds > 1 ? " (" + seconds_text(limit_) + " x " +
                                             std::to_string(rounds) + " rounds)"
                                       : std::string()),
                       peers ? peers() : std::vector<int>());
    }
  }
}

void RankWire::check_peers() {
  const int64_t now = now_ns();
  if (now < next_check_) return;
  next_check_ = now + kCheckPeersNs;
  boot_.check_peers();
}

void RankWire::wait_until(int64_t at_ns) {
  while (now_ns() < at_ns) poll_once();
}

}  // namespace dlcnet
