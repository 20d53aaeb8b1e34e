// One endpoint of a point-to-point test: the transport, the peer, and one registered buffer
// laid out as [out area | in area], each large enough for the largest size of the run. Also the
// waits every pattern shares, each bounded by the spec's timeout.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/bootstrap.hpp"
#include "core/clock.hpp"
#include "core/transport.hpp"
#include "patterns/p2p/bench_spec.hpp"

namespace dlcnet {

class PeerSession {
 public:
  // Allocates and registers the buffer; call before transport.connect().
  PeerSession(Transport& t, Bootstrap& boot, int peer, bool initiator, const BenchSpec& spec);
  ~PeerSession();
  PeerSession(const PeerSession&) = delete;
  PeerSession& operator=(const PeerSession&) = delete;

  Transport& transport() noexcept { return t_; }
  Bootstrap& bootstrap() noexcept { return boot_; }
  int rank() const noexcept { return boot_.rank(); }
  int peer() const noexcept { return peer_; }
  bool initiator() const noexcept { return initiator_; }
  const BenchSpec& spec() const noexcept { return spec_; }
  // How long a wait for the peer lasts without progress: the wait limit of the spec's
  // --timeout (core/stop_budget.hpp), the rest kept for settling the failure.
  std::chrono::milliseconds stall_limit() const noexcept { return stall_limit_; }
  RegionId region() const noexcept { return region_; }
  size_t out_offset() const noexcept { return 0; }
  size_t in_offset() const noexcept { return area_; }
  uint8_t* out() noexcept { return buf_; }
  volatile uint8_t* in() noexcept { return buf_ + area_; }

  // Zeroes both areas; call only while nothing is in flight (between barriers).
  void clear();

  // ---- shared waits; each throws Error on a failed completion, a dead peer (asked of the
  // bootstrap every 10 ms once a wait is past its first polls) or a stall past the timeout ----
  // Polls until a completion arrives and returns it (failed ones throw, naming the op).
  // `passive`: nothing is measured on this side, so where the transport allows it (see
  // Transport::target_must_poll) the wait sleeps between polls once idle, like perftest's
  // passive side, instead of taking a CPU from the data path (Soft-RoCE's kernel threads).
  Completion wait_completion(const char* waiting_for, bool passive = false);
  // Polls (for progress, and to retire send completions) until in()[index] == a or == b;
  // returns the value seen.
  uint8_t wait_byte(size_t index, uint8_t a, uint8_t b, const char* waiting_for);
  // Posts with `post` (a callable returning Status) until the transport takes it: while it
  // answers busy (its queue is full of operations whose completions have not come back yet),
  // polls to retire them, within the timeout. Receive completions seen meanwhile are kept for
  // wait_completion(); a failed post or completion throws.
  template <class Post>
  void post(const char* op, Post&& post) {
    Status st = post();
    if (st == Status::ok) return;  // the usual case: no clock read on the datapath
    const int64_t since = now_ns();
    for (uint32_t spins = 0;; ++spins) {
      check(st, op);
      wait_for_credit(op, since, spins);
      st = post();
      if (st == Status::ok) return;
    }
  }
  // Keeps `depth` receives of the maximum size posted into the in area.
  void top_up_receives(uint32_t depth);
  void on_receive_consumed() noexcept { --posted_recvs_; }
  // End of a run: the initiator sends a zero-length message; the responder keeps the transport
  // progressing until it arrives (UCX RMA over tcp/shm lanes needs the target to progress).
  void signal_done();
  void serve_until_done();
  // One-sided runs (write, read): the responder has no completion of its own while the
  // initiator runs, so the initiator sends it a 1-byte heartbeat every beat interval (a quarter
  // of the wait limit, at most 1 s) and each restarts the responder's wait: a frozen initiator is
  // found within the timeout however long the run. Call with the time, often; it posts only
  // when one is due and the send queue has room (it never waits). Its completions are not
  // returned by wait_completion(); a loop polling itself skips them (is_beat()).
  void beat(int64_t now) noexcept;
  static bool is_beat(const Completion& c) noexcept;
  // Harvests completions already queued without waiting; a failed one throws.
  void drain();
  [[noreturn]] void fail(const std::string& what) const;
  // Throws for a failed completion: "<op> completion with error: <text>", followed by
  // " (while waiting for <waiting_for>)" when that is given.
  [[noreturn]] void failed_completion(const Completion& c, const char* waiting_for = nullptr) const;
  void check(Status s, const char* op);

 private:
  // wait_completion() past its first kPollsPerClockCheck polls, or from the start when
  // passive: the same polling, plus the timeout and the passive side's naps.
  Completion wait_completion_slowly(const char* waiting_for, bool passive);
  void wait_for_credit(const char* op, int64_t since, uint32_t spins);
  [[noreturn]] void stalled(const char* waiting_for) const;
  // Bootstrap::check_peers() at most every 10 ms of a wait: throws Error naming a dead peer.
  void watch_peer(int64_t now);

  Transport& t_;
  Bootstrap& boot_;
  int peer_;
  bool initiator_;
  BenchSpec spec_;
  std::chrono::milliseconds stall_limit_;
  size_t area_ = 0;
  uint8_t* buf_ = nullptr;
  RegionId region_ = 0;
  uint32_t posted_recvs_ = 0;
  int64_t next_peer_check_ns_ = 0;
  int64_t next_beat_ns_ = 0;
  std::vector<Completion> kept_;  // receive completions harvested while a post waited
};

// Marker written in the last byte of every ping: cycles 1..254; 255 means "last one, stop".
inline constexpr uint8_t kStopMarker = 255;
inline uint8_t marker_for(uint64_t i) noexcept {
  return static_cast<uint8_t>(1 + i % 254);
}

}  // namespace dlcnet
