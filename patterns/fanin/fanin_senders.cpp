// The sending roles: a worker bursts toward the server when told (and takes the replies with
// --pull); a background rank streams toward the server until told to stop.
#include <cstring>
#include <string>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stall_error.hpp"
#include "core/stop_budget.hpp"
#include "patterns/fanin/fanin_roles.hpp"
#include "patterns/fanin/fanin_wire.hpp"

namespace dlcnet::fanin {

void prepare_sender(RoleContext& c) {
  FaninWire w(c.t, c.boot, c.idle, c.timeout, [](const Completion&, int64_t) {});
  // A rank's receives take the server's messages in the order they were posted: ticks come
  // before the go, so a background rank posts its receive of the stop once the go is in.
  w.recv(kServer, c.ctl, 0, 16, wr_id(Tag::go, 0));
}

namespace {

// Whether the go that just arrived in the control slot is a tick (fanin_wire.hpp).
bool is_tick(const RoleContext& c) {
  int64_t target = 0;
  std::memcpy(&target, c.ctl_mem, sizeof target);
  return target == kTickTarget;
}

// How many wait limits may pass between two words (a go or a tick) from a live server: a
// round's burst (and, --pull, its replies: one limit each at the server) and, released by a
// barrier, the --gap the server waits before the next round's words (an instant release names
// a start --gap ahead and sends them at once).
int64_t limits_between_words(const RoleContext& c) {
  const int64_t limit_ns = std::chrono::nanoseconds(c.timeout).count();
  const auto gap_ns =
      c.spec.release == Release::barrier ? static_cast<int64_t>(c.spec.gap_us * 1e3) : 0;
  return 1 + (c.spec.pull ? 1 : 0) + (gap_ns + limit_ns - 1) / limit_ns;
}

// Waits until `started` holds, each wait for one word from the server (ticks counts those
// that were not the start): a frozen server is found within the limits between two words.
void wait_for_start(FaninWire& wire, const RoleContext& c, const uint64_t& ticks,
                    const std::function<bool()>& started,
                    const std::function<std::string()>& what) {
  const int64_t limits = limits_between_words(c);
  while (!started()) {
    const uint64_t seen = ticks;
    wire.wait([&] { return started() || ticks != seen; }, what, limits,
              [] { return std::vector<int>{kServer}; });
  }
}

class Worker {
 public:
  Worker(RoleContext& c, const std::vector<Round>& rounds)
      : c_(c),
        rounds_(rounds),
        k_(c.spec.burst.size()),
        offsets_(c.spec.burst_offsets()),
        wire_(c.t, c.boot, c.idle, c.timeout,
              [this](const Completion& x, int64_t now) { on(x, now); }) {}

  std::vector<WorkerRound> run() {
    std::vector<uint32_t> mine;
    for (size_t i = 0; i < rounds_.size(); ++i) {
      if (takes_part(rounds_[i], c_.rank)) mine.push_back(static_cast<uint32_t>(i));
    }
    out_.reserve(mine.size());
    for (size_t j = 0; j < mine.size(); ++j) {
      round(mine[j], j + 1 < mine.size());
      ++rounds_done_;
      if (c_.worker_round) c_.worker_round(out_.back());
    }
    return std::move(out_);
  }

  // The rounds completed so far (after a failure: those before it).
  std::vector<WorkerRound> completed() const {
    return {out_.begin(), out_.begin() + static_cast<std::ptrdiff_t>(rounds_done_)};
  }

 private:
  void on(const Completion& x, int64_t now) {
    const size_t k = index_of(x.wr_id);
    switch (tag_of(x.wr_id)) {
      case Tag::go:
        if (is_tick(c_)) {  // not this worker's turn yet: wait for the next word
          ++ticks_;
          wire_.recv(kServer, c_.ctl, 0, 16, wr_id(Tag::go, 0));
          break;
        }
        ++gos_;
        go_seen_ = now;
        break;
      case Tag::data:  // the send, or the write, of message k
        cur_->complete_ns[k] = now;
        --pending_;
        if (x.op == Op::write && !ordered_) due_.push_back(k);
        break;
      case Tag::ctl:  // a write's notification
        --pending_;
        break;
      case Tag::pull:
        if (x.bytes != c_.spec.burst[k]) {
          throw Error("the server's reply " + std::to_string(k) + " has " +
                      std::to_string(x.bytes) + " bytes; expected " +
                      std::to_string(c_.spec.burst[k]));
        }
        cur_->pull_arrival_ns[k] = now;
        --pending_;
        break;
      default:
        throw Error("unexpected completion (wr_id " + std::to_string(x.wr_id) + ")");
    }
  }

  void round(uint32_t index, bool more) {
    const Round& r = rounds_[index];
    const std::string name =
        std::string(to_string(r.kind)) + " round " + std::to_string(r.iteration);
    // The server's word comes each round: this worker's go, or a tick while others go.
    wait_for_start(
        wire_, c_, ticks_, [&] { return gos_ > used_; },
        [&] { return name + ": no start from the server"; });
    ++used_;
    WorkerRound wr;
    wr.round = index;
    wr.go_seen_ns = go_seen_;
    int64_t target = 0, target_mono = 0;
    std::memcpy(&target, c_.ctl_mem, 8);
    std::memcpy(&target_mono, c_.ctl_mem + 8, 8);
    wr.post_ns.assign(k_, 0);
    wr.complete_ns.assign(k_, 0);
    out_.push_back(std::move(wr));
    cur_ = &out_.back();
    if (c_.spec.pull) {
      cur_->pull_arrival_ns.assign(k_, 0);
      for (size_t k = 0; k < k_; ++k) {
        wire_.recv(kServer, c_.data, pull_offset(c_.spec, offsets_, k), c_.spec.burst[k],
                   wr_id(Tag::pull, k));
      }
    }
    if (more) wire_.recv(kServer, c_.ctl, 0, 16, wr_id(Tag::go, 0));
    if (target != 0) {
      const int64_t local = c_.to_local(target, target_mono);
      if (local - now_ns() > std::chrono::nanoseconds(c_.timeout).count()) {
        throw Error(name + ": the start the server named is " +
                    std::to_string((local - now_ns()) / 1'000'000) +
                    " ms away on this rank's clock: the clock alignment is wrong");
      }
      wire_.wait_until(local);
    }
    cur_->start_ns = now_ns();
    const bool write = c_.spec.op == Op::write;
    pending_ = static_cast<int64_t>(k_) * (1 + (write ? 1 : 0) + (c_.spec.pull ? 1 : 0));
    const ServerLayout server(c_.spec, c_.world);
    for (size_t k = 0; k < k_; ++k) {
      if (!write) {
        cur_->post_ns[k] =
            wire_.send(kServer, c_.data, offsets_[k], c_.spec.burst[k], wr_id(Tag::data, k));
        continue;
      }
      cur_->post_ns[k] = wire_.write(kServer, c_.data, offsets_[k], c_.spec.burst[k],
                                     server.data(c_.rank, k), wr_id(Tag::data, k));
      // Where the transport delivers a send only after the write before it (RC verbs), the
      // notification follows at once; elsewhere (UCX) once the write has completed.
      if (ordered_) notify(k);
    }
    wire_.wait(
        [&] {
          while (!due_.empty()) {
            const size_t k = due_.back();
            due_.pop_back();
            notify(k);
          }
          return pending_ == 0;
        },
        [&] { return name + ": the burst (or the replies) did not complete"; }, 1,
        [] { return std::vector<int>{kServer}; });
  }

  // A write's 8-byte notification (what the server's receive sees arrive).
  void notify(size_t k) { wire_.send(kServer, c_.ctl, 5 * kCtlSlot, 8, wr_id(Tag::ctl, k)); }

  RoleContext& c_;
  const std::vector<Round>& rounds_;
  size_t k_;
  std::vector<uint64_t> offsets_;
  FaninWire wire_;
  bool ordered_ = c_.t.orders_write_before_send();
  std::vector<size_t> due_;  // writes completed whose notification is still to be sent
  std::vector<WorkerRound> out_;
  size_t rounds_done_ = 0;
  WorkerRound* cur_ = nullptr;
  uint64_t gos_ = 0, used_ = 0, ticks_ = 0;
  int64_t go_seen_ = 0;
  int64_t pending_ = 0;
};

class Background {
 public:
  explicit Background(RoleContext& c)
      : c_(c),
        wire_(c.t, c.boot, c.idle, c.timeout, [this](const Completion& x, int64_t) { on(x); }) {}

  BackgroundTimes run() {
    wait_for_start(
        wire_, c_, ticks_, [&] { return go_; },
        [] { return std::string("background: no start from the server"); });
    // Streaming: the server takes a message (a send completes) at least once per round while
    // it runs; a window of sends with none completing for that long is a stopped server.
    const auto stall = c_.timeout * limits_between_words(c_);
    int64_t progress_at = now_ns();
    uint64_t completed = completed_;
    while (!stop_) {
      if (pending_ >= static_cast<int64_t>(c_.spec.bg_window)) {
        wire_.poll_once();
        wire_.check_peers();
        if (completed_ != completed) {
          completed = completed_;
          progress_at = now_ns();
        } else if (now_ns() - progress_at > std::chrono::nanoseconds(stall).count()) {
          throw StallError(
              "background: no message taken by the server within " +
                  seconds_text(std::chrono::duration_cast<std::chrono::milliseconds>(stall)),
              {kServer});
        }
        continue;
      }
      ++pending_;
      out_.post_ns.push_back(
          wire_.send(kServer, c_.data, 0, c_.spec.bg_size, wr_id(Tag::bg, out_.post_ns.size())));
    }
    // Done, with the count; the server answers how many receives it has left posted, and
    // that many fillers consume them, so none is left to catch a later message.
    wire_.recv(kServer, c_.ctl, 2 * kCtlSlot, 16, wr_id(Tag::ctl, 2));
    const uint64_t n = out_.post_ns.size();
    std::memcpy(c_.ctl_mem + 3 * kCtlSlot, &n, 8);
    ++pending_;
    wire_.send(kServer, c_.ctl, 3 * kCtlSlot, 16, wr_id(Tag::ctl, 3));
    wire_.wait([&] { return flush_; }, [] { return std::string("background: no answer to done"); },
               1, [] { return std::vector<int>{kServer}; });
    uint64_t fillers = 0;
    std::memcpy(&fillers, c_.ctl_mem + 2 * kCtlSlot, 8);
    for (uint64_t j = 0; j < fillers; ++j) {
      ++pending_;
      wire_.send(kServer, c_.ctl, 4 * kCtlSlot, 8, wr_id(Tag::ctl, 4));
    }
    wire_.wait([&] { return pending_ == 0; },
               [] { return std::string("background: sends did not complete"); }, 1,
               [] { return std::vector<int>{kServer}; });
    return std::move(out_);
  }

 private:
  void on(const Completion& x) {
    if (x.op != Op::recv) {
      --pending_;
      ++completed_;
      return;
    }
    if (tag_of(x.wr_id) == Tag::go && is_tick(c_)) {
      ++ticks_;
      wire_.recv(kServer, c_.ctl, 0, 16, wr_id(Tag::go, 0));
    } else if (tag_of(x.wr_id) == Tag::go) {
      go_ = true;
      wire_.recv(kServer, c_.ctl, kCtlSlot, 16, wr_id(Tag::ctl, 0));  // the stop
    }
    if (tag_of(x.wr_id) == Tag::ctl && index_of(x.wr_id) == 0) stop_ = true;
    if (tag_of(x.wr_id) == Tag::ctl && index_of(x.wr_id) == 2) flush_ = true;
  }

  RoleContext& c_;
  FaninWire wire_;
  BackgroundTimes out_;
  bool go_ = false, stop_ = false, flush_ = false;
  int64_t pending_ = 0;
  uint64_t ticks_ = 0, completed_ = 0;
};

}  // namespace

void run_worker(RoleContext& c, const std::vector<Round>& rounds, std::vector<WorkerRound>& out) {
  Worker w(c, rounds);
  try {
    out = w.run();
  } catch (...) {
    out = w.completed();
    throw;
  }
}

BackgroundTimes run_background(RoleContext& c) {
  return Background(c).run();
}

}  // namespace dlcnet::fanin
