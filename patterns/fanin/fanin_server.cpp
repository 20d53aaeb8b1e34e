// The server's side of every round: post the receives, name the start, collect the bursts,
// answer them (--pull); and the background ranks' streams, kept fed until told to stop.
#include <algorithm>
#include <cstring>
#include <string>

#include "core/clock.hpp"
#include "core/clock_sync.hpp"
#include "core/error.hpp"
#include "patterns/fanin/fanin_roles.hpp"
#include "patterns/fanin/fanin_wire.hpp"

namespace dlcnet::fanin {
namespace {

constexpr uint64_t kWorkerShift = 24;  // data and pull wr_ids: worker << 24 | message

class Server {
 public:
  Server(RoleContext& c, const std::vector<Round>& rounds)
      : c_(c),
        rounds_(rounds),
        workers_(worker_count(c.world, c.spec)),
        k_(c.spec.burst.size()),
        layout_(c.spec, c.world),
        wire_(c.t, c.boot, c.idle, c.timeout,
              [this](const Completion& x, int64_t now) { on(x, now); }) {
    times_.bg_arrival_ns.resize(static_cast<size_t>(c.spec.background));
    bg_.resize(static_cast<size_t>(c.spec.background));
    ticks_pending_.assign(static_cast<size_t>(c.world), 0);
    last_round_.assign(static_cast<size_t>(workers_) + 1, -1);
    for (size_t i = 0; i < rounds.size(); ++i) {
      for (int w = 1; w <= workers_; ++w) {
        if (takes_part(rounds[i], w)) last_round_[static_cast<size_t>(w)] = static_cast<int64_t>(i);
      }
    }
    // The server never sends itself a go: its own slot is the ticks' source, never changed.
    std::memcpy(c.ctl_mem, &kTickTarget, sizeof kTickTarget);
  }

  // The rounds completed so far (after a failure: those before it).
  ServerTimes completed() const {
    ServerTimes t = times_;
    t.rounds.resize(std::min(t.rounds.size(), rounds_done_));
    return t;
  }

  ServerTimes run() {
    for (size_t i = 0; i < rounds_.size(); ++i) {
      const Round& r = rounds_[i];
      if (!bg_started_ && r.kind != RoundKind::solo && c_.spec.background > 0) {
        start_background();
        bg_started_ = true;
      }
      run_round(r, i);
      ++rounds_done_;
      if (c_.server_round) c_.server_round(i, times_.rounds.back());
    }
    if (c_.spec.background > 0) {
      if (!bg_started_) start_background();
      stop_background();
    }
    wire_.wait([&] { return ticks_left().empty(); },
               [&] { return std::string("ticks to rank(s) waiting for their turn not delivered"); },
               1, [&] { return ticks_left(); });
    return std::move(times_);
  }

 private:
  struct Bg {
    uint64_t posted = 0;
    bool done = false;
    uint64_t fillers_left = 0;
  };

  int bg_rank(size_t b) const { return workers_ + 1 + static_cast<int>(b); }
  size_t data_offset(int w, size_t k) const { return layout_.data(w, k); }
  size_t bg_offset(size_t b, uint64_t slot) const { return layout_.background(b, slot); }
  // Where message k of worker w arrives: its place in the burst, or (--op write: the data is
  // written there) its notification's slot.
  size_t arrival_offset(int w, size_t k) const {
    return c_.spec.op == Op::write ? layout_.notification(w, k) : layout_.data(w, k);
  }
  void post_bg(size_t b) {
    Bg& g = bg_[b];
    wire_.recv(bg_rank(b), c_.data, bg_offset(b, g.posted), c_.spec.bg_size, wr_id(Tag::bg, b));
    ++g.posted;
  }

  void on(const Completion& x, int64_t now) {
    switch (tag_of(x.wr_id)) {
      case Tag::data: {
        const int w = static_cast<int>(index_of(x.wr_id) >> kWorkerShift);
        const size_t k = index_of(x.wr_id) & ((1u << kWorkerShift) - 1);
        if (x.bytes != c_.spec.arrival_bytes(k)) {
          throw Error("rank " + std::to_string(w) + " sent " + std::to_string(x.bytes) +
                      " bytes as message " + std::to_string(k) + " of its burst; expected " +
                      std::to_string(c_.spec.arrival_bytes(k)) +
                      ": start every rank with the same burst");
        }
        cur_->arrival_ns[static_cast<size_t>(w - 1)][k] = now;
        --pending_;
        break;
      }
      case Tag::go:
        if (index_of(x.wr_id) == kTickIndex) {
          --ticks_pending_[static_cast<size_t>(x.peer)];
          break;
        }
        --pending_sends_;
        break;
      case Tag::pull:
      case Tag::ctl:
        --pending_sends_;
        break;
      case Tag::bg:
        on_background(x, now);
        break;
    }
  }

  void on_background(const Completion& x, int64_t now) {
    const size_t b = index_of(x.wr_id);
    Bg& g = bg_[b];
    if (x.op != Op::recv) {
      --pending_sends_;
      return;
    }
    if (g.done) {  // a filler consuming one of the receives left posted
      --g.fillers_left;
      return;
    }
    if (x.bytes == 16) {  // done: the background rank sent its last message
      g.done = true;
      g.fillers_left = g.posted - times_.bg_arrival_ns[b].size() - 1;
      uint8_t* slot = c_.ctl_mem + static_cast<size_t>(c_.world + bg_rank(b)) * kCtlSlot;
      const uint64_t d = g.fillers_left;
      std::memcpy(slot, &d, sizeof d);
      ++pending_sends_;
      wire_.send(bg_rank(b), c_.ctl, static_cast<size_t>(c_.world + bg_rank(b)) * kCtlSlot, 16,
                 wr_id(Tag::bg, b));
      return;
    }
    times_.bg_arrival_ns[b].push_back(now);
    post_bg(b);
  }

  void send_go(int rank, int64_t target, int64_t target_mono) {
    uint8_t* slot = c_.ctl_mem + static_cast<size_t>(rank) * kCtlSlot;
    std::memcpy(slot, &target, 8);
    std::memcpy(slot + 8, &target_mono, 8);
    ++pending_sends_;
    wire_.send(rank, c_.ctl, static_cast<size_t>(rank) * kCtlSlot, 16, wr_id(Tag::go, 0));
  }

  // Every rank waiting for a later turn (a worker with a round still ahead, a background rank
  // not yet started) hears that the server is alive (kTickTarget).
  void send_ticks(const std::vector<int>& parts, size_t index) {
    for (int w = 1; w <= workers_; ++w) {
      if (last_round_[static_cast<size_t>(w)] <= static_cast<int64_t>(index)) continue;
      if (std::find(parts.begin(), parts.end(), w) != parts.end()) continue;
      send_tick(w);
    }
    if (bg_started_) return;
    for (size_t b = 0; b < bg_.size(); ++b) send_tick(bg_rank(b));
  }
  void send_tick(int rank) {
    ++ticks_pending_[static_cast<size_t>(rank)];
    wire_.send(rank, c_.ctl, 0, 16, wr_id(Tag::go, kTickIndex));
  }
  std::vector<int> ticks_left() const {
    std::vector<int> out;
    for (size_t r = 0; r < ticks_pending_.size(); ++r) {
      if (ticks_pending_[r] != 0) out.push_back(static_cast<int>(r));
    }
    return out;
  }

  void start_background() {
    for (size_t b = 0; b < bg_.size(); ++b) {
      for (uint32_t j = 0; j < kBgRecvs; ++j) post_bg(b);
      send_go(bg_rank(static_cast<int>(b)), 0, 0);
    }
    times_.bg_start_ns = now_ns();
    wire_.wait_until(times_.bg_start_ns + static_cast<int64_t>(c_.spec.bg_lead_ms * 1e6));
  }

  void stop_background() {
    for (size_t b = 0; b < bg_.size(); ++b) {
      uint8_t* slot = c_.ctl_mem + static_cast<size_t>(bg_rank(b)) * kCtlSlot;
      std::memcpy(slot, "STOP", 4);
      ++pending_sends_;
      wire_.send(bg_rank(b), c_.ctl, static_cast<size_t>(bg_rank(b)) * kCtlSlot, 16,
                 wr_id(Tag::ctl, b));
    }
    wire_.wait(
        [&] {
          if (pending_sends_ != 0) return false;
          return std::all_of(bg_.begin(), bg_.end(),
                             [](const Bg& g) { return g.done && g.fillers_left == 0; });
        },
        [&] {
          std::string who;
          for (size_t b = 0; b < bg_.size(); ++b) {
            if (!bg_[b].done || bg_[b].fillers_left) who += " " + std::to_string(bg_rank(b));
          }
          return "stopping the background: no last message from rank(s)" + who;
        });
  }

  void run_round(const Round& r, size_t index) {
    ServerRound sr;
    sr.arrival_ns.resize(static_cast<size_t>(workers_));
    sr.pull_post_ns.resize(static_cast<size_t>(workers_));
    times_.rounds.push_back(std::move(sr));
    cur_ = &times_.rounds.back();
    std::vector<int> parts;
    for (int w = 1; w <= workers_; ++w) {
      if (!takes_part(r, w)) continue;
      parts.push_back(w);
      cur_->arrival_ns[static_cast<size_t>(w - 1)].assign(k_, 0);
      for (size_t k = 0; k < k_; ++k) {
        wire_.recv(w, c_.data, arrival_offset(w, k), c_.spec.arrival_bytes(k),
                   wr_id(Tag::data, (uint64_t(w) << kWorkerShift) | k));
      }
    }
    pending_ = static_cast<int64_t>(parts.size() * k_);
    const int64_t gap = index == 0 ? 0 : static_cast<int64_t>(c_.spec.gap_us * 1e3);
    int64_t target = 0, target_mono = 0;
    if (c_.spec.release == Release::instant) {
      target = now_ns() + std::max(gap, c_.min_lead_ns);
      target_mono = target - std::llround(link_to_monotonic(8).offset_ns);
    } else if (gap > 0) {
      wire_.wait_until(now_ns() + gap);
    }
    cur_->target_ns = target;
    cur_->go_ns = now_ns();
    for (int w : parts) send_go(w, target, target_mono);
    send_ticks(parts, index);
    const std::string name =
        std::string(to_string(r.kind)) + " round " + std::to_string(r.iteration);
    wire_.wait([&] { return pending_ == 0 && pending_sends_ == 0; },
               [&] { return name + ": bursts incomplete: " + missing(parts); }, 1,
               [&] { return missing_ranks(parts); });
    if (!c_.spec.pull) return;
    for (int w : parts) {
      auto& posts = cur_->pull_post_ns[static_cast<size_t>(w - 1)];
      posts.assign(k_, 0);
      for (size_t k = 0; k < k_; ++k) {
        ++pending_sends_;
        posts[k] = wire_.send(w, c_.data, data_offset(w, k), c_.spec.burst[k],
                              wr_id(Tag::pull, (uint64_t(w) << kWorkerShift) | k));
      }
    }
    wire_.wait([&] { return pending_sends_ == 0; },
               [&] { return name + ": the replies (--pull) did not complete"; });
  }

  // The workers of `parts` whose bursts have not all arrived.
  std::vector<int> missing_ranks(const std::vector<int>& parts) const {
    std::vector<int> out;
    for (int w : parts) {
      const auto& a = cur_->arrival_ns[static_cast<size_t>(w - 1)];
      if (std::any_of(a.begin(), a.end(), [](int64_t t) { return t == 0; })) out.push_back(w);
    }
    return out;
  }

  std::string missing(const std::vector<int>& parts) const {
    std::string out;
    for (int w : parts) {
      const auto& a = cur_->arrival_ns[static_cast<size_t>(w - 1)];
      const auto got = std::count_if(a.begin(), a.end(), [](int64_t t) { return t != 0; });
      if (static_cast<size_t>(got) == k_) continue;
      out += (out.empty() ? "" : ", ") + std::string("rank ") + std::to_string(w) + " " +
             std::to_string(got) + " of " + std::to_string(k_) + " messages";
    }
    return out.empty() ? "sends not complete" : out;
  }

  RoleContext& c_;
  const std::vector<Round>& rounds_;
  size_t rounds_done_ = 0;
  int workers_;
  size_t k_;
  ServerLayout layout_;
  FaninWire wire_;
  ServerTimes times_;
  ServerRound* cur_ = nullptr;
  std::vector<Bg> bg_;
  bool bg_started_ = false;
  int64_t pending_ = 0, pending_sends_ = 0;
  // Ticks (kTickTarget) not yet completed, per rank; each worker's last round (-1: none).
  static constexpr uint64_t kTickIndex = 1;  // a go's wr_id index: 0 a go, 1 a tick
  std::vector<int64_t> ticks_pending_;
  std::vector<int64_t> last_round_;
};

}  // namespace

void run_server(RoleContext& c, const std::vector<Round>& rounds, ServerTimes& out) {
  Server s(c, rounds);
  try {
    out = s.run();
  } catch (...) {
    out = s.completed();
    throw;
  }
}

}  // namespace dlcnet::fanin
