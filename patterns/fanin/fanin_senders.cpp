// The sending roles: a worker bursts toward the server when told (and takes the replies with
// --pull); a background rank streams toward the server until told to stop.
#include <cstring>
#include <string>

#include "core/clock.hpp"
#include "core/deadline.hpp"
#include "core/error.hpp"
#include "core/stall_error.hpp"
#include "core/stop_budget.hpp"
#include "patterns/fanin/fanin_roles.hpp"
#include "patterns/fanin/fanin_wire.hpp"

namespace dlcnet::fanin {

void prepare_sender(RoleContext& c) {
  FaninWire w(c.t, c.boot, c.idle, c.timeout, [](const Completion&, int64_t) {});
  w.recv(kServer, c.ctl, 0, 16, wr_id(Tag::go, 0));
  if (!is_worker(c.rank, c.world, c.spec)) w.recv(kServer, c.ctl, kCtlSlot, 16, wr_id(Tag::ctl, 0));
}

namespace {

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
    // Every round between this worker's last one and this is bounded by the timeout at the
    // server.
    wire_.wait([&] { return gos_ > used_; }, [&] { return name + ": no start from the server"; },
               static_cast<int64_t>(index) - last_index_, [] { return std::vector<int>{kServer}; });
    last_index_ = index;
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
  uint64_t gos_ = 0, used_ = 0;
  int64_t last_index_ = -1;
  int64_t go_seen_ = 0;
  int64_t pending_ = 0;
};

class Background {
 public:
  explicit Background(RoleContext& c)
      : c_(c),
        wire_(c.t, c.boot, c.idle, c.timeout, [this](const Completion& x, int64_t) { on(x); }) {}

  BackgroundTimes run() {
    const auto rounds =
        static_cast<int64_t>(schedule(c_.spec, worker_count(c_.world, c_.spec)).size());
    wire_.wait([&] { return go_; },
               [] { return std::string("background: no start from the server"); }, rounds + 1,
               [] { return std::vector<int>{kServer}; });
    const Deadline d = Deadline::after(c_.timeout * (rounds + 1));
    while (!stop_) {
      if (pending_ >= static_cast<int64_t>(c_.spec.bg_window)) {
        wire_.poll_once();
        wire_.check_peers();
        if (d.expired())
          throw StallError("background: no stop from the server within " +
                               seconds_text(c_.timeout * (rounds + 1)),
                           {kServer});
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
      return;
    }
    if (tag_of(x.wr_id) == Tag::go) go_ = true;
    if (tag_of(x.wr_id) == Tag::ctl && index_of(x.wr_id) == 0) stop_ = true;
    if (tag_of(x.wr_id) == Tag::ctl && index_of(x.wr_id) == 2) flush_ = true;
  }

  RoleContext& c_;
  FaninWire wire_;
  BackgroundTimes out_;
  bool go_ = false, stop_ = false, flush_ = false;
  int64_t pending_ = 0;
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
