#include "patterns/p2p/session.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stall_error.hpp"
#include "core/stop_budget.hpp"

namespace dlcnet {
namespace {

constexpr size_t kPage = 4096;
// How many empty polls between two looks at the clock: keeps now_ns() off the hot path.
constexpr uint32_t kPollsPerClockCheck = 4096;
constexpr uint64_t kDoneWrId = ~0ull;
constexpr uint64_t kBeatWrId = ~0ull - 1;
constexpr uint64_t kBeatBytes = 1;  // the end of run is 0 bytes
// A passive wait sleeps in naps of kNap once it has polled kSpinsBeforeNap times in vain.
constexpr uint32_t kSpinsBeforeNap = 1024;
constexpr timespec kNap{0, 100'000};
// A wait past its first polls asks the bootstrap this often whether the peer's process is gone
// (Bootstrap::check_peers): a transport that cannot tell (UCX over shared memory) would
// otherwise wait out the timeout, and the bootstrap names the peer's rank and host.
constexpr int64_t kPeerCheckNs = 10'000'000;

}  // namespace

PeerSession::PeerSession(Transport& t, Bootstrap& boot, int peer, bool initiator,
                         const BenchSpec& spec)
    : t_(t),
      boot_(boot),
      peer_(peer),
      initiator_(initiator),
      spec_(spec),
      stall_limit_(stop_budget(spec.timeout_s).wait) {
  area_ = (std::max<uint64_t>(spec.max_size(), 1) + kPage - 1) / kPage * kPage;
  // The transport's own memory (UCX: mapped by UCX, so a same-host peer can write it directly,
  // as ucx_perftest's), freed with the transport.
  const Allocation a = t_.allocate_memory(2 * area_);
  buf_ = a.data;
  region_ = a.region;
}

PeerSession::~PeerSession() = default;

void PeerSession::clear() {
  std::memset(buf_, 0, 2 * area_);
}

void PeerSession::fail(const std::string& what) const {
  throw Error(std::string(t_.name()) + ": " + what);
}

void PeerSession::failed_completion(const Completion& c, const char* waiting_for) const {
  std::string what =
      std::string(to_string(c.op)) + " completion with error: " + (c.error ? c.error : "unknown");
  if (waiting_for != nullptr) what += std::string(" (while waiting for ") + waiting_for + ")";
  fail(what);
}

void PeerSession::check(Status s, const char* op) {
  if (s == Status::failed)
    fail(std::string(op) + " to rank " + std::to_string(peer_) + " failed: " + t_.last_error());
}

Completion PeerSession::wait_completion(const char* waiting_for, bool passive) {
  if (!kept_.empty()) {
    const Completion k = kept_.front();
    kept_.erase(kept_.begin());
    return k;
  }
  if (passive) return wait_completion_slowly(waiting_for, passive);
  // The loop a ping-pong spends its time in: one poll and one test per turn; the clock is
  // looked at only every kPollsPerClockCheck turns.
  std::array<Completion, 1> c;
  for (uint32_t spins = 1; spins < kPollsPerClockCheck; ++spins) {
    const int n = t_.poll(c);
    if (n == 1 && c[0].ok && !is_beat(c[0])) [[likely]]
      return c[0];
    if (n != 0) [[unlikely]] {
      if (n < 0) fail(std::string("while waiting for ") + waiting_for + ": " + t_.last_error());
      if (!c[0].ok) failed_completion(c[0], waiting_for);
    }
  }
  return wait_completion_slowly(waiting_for, passive);
}

Completion PeerSession::wait_completion_slowly(const char* waiting_for, bool passive) {
  const int64_t limit = std::chrono::nanoseconds(stall_limit_).count();
  const int64_t since = now_ns();
  const bool nap = passive && !t_.target_must_poll();
  std::array<Completion, 1> c;
  for (uint32_t spins = 1;; ++spins) {
    const int n = t_.poll(c);
    if (n < 0) fail(std::string("while waiting for ") + waiting_for + ": " + t_.last_error());
    if (n == 1) {
      if (!c[0].ok) failed_completion(c[0], waiting_for);
      if (!is_beat(c[0])) return c[0];
    }
    if (nap ? spins >= kSpinsBeforeNap : spins % kPollsPerClockCheck == 0) {
      const int64_t now = now_ns();
      if (now - since > limit) stalled(waiting_for);
      watch_peer(now);
    }
    if (nap && spins >= kSpinsBeforeNap) nanosleep(&kNap, nullptr);
  }
}

uint8_t PeerSession::wait_byte(size_t index, uint8_t a, uint8_t b, const char* waiting_for) {
  volatile uint8_t* p = in() + index;
  const int64_t limit = std::chrono::nanoseconds(stall_limit_).count();
  int64_t since = 0;  // read at the first timeout check: no clock read on the fast path
  // Where the transport progresses by itself (verbs), the CQ is polled only to retire send
  // completions, so the loop reads memory as tightly as perftest's; UCX progresses in poll().
  const uint32_t poll_mask = t_.target_must_poll() ? 0 : 63;
  std::array<Completion, 16> c;
  for (uint32_t spins = 1;; ++spins) {
    uint8_t v = *p;
    if (v == a || v == b) return v;
    if ((spins & poll_mask) != 0) continue;
    int n = t_.poll(c);
    if (n < 0) fail(std::string("while waiting for ") + waiting_for + ": " + t_.last_error());
    for (int i = 0; i < n; ++i) {
      if (!c[i].ok) failed_completion(c[i]);
    }
    if (spins % kPollsPerClockCheck == 0) {
      const int64_t now = now_ns();
      if (since == 0) since = now;
      if (now - since > limit) stalled(waiting_for);
      watch_peer(now);
    }
  }
}

void PeerSession::watch_peer(int64_t now) {
  if (now < next_peer_check_ns_) return;
  next_peer_check_ns_ = now + kPeerCheckNs;
  boot_.check_peers();
}

void PeerSession::stalled(const char* waiting_for) const {
  throw StallError(std::string(t_.name()) + ": no progress for " + seconds_text(stall_limit_) +
                       " waiting for " + waiting_for + " from rank " + std::to_string(peer_) +
                       " (peer gone?)",
                   {peer_});
}

void PeerSession::wait_for_credit(const char* op, int64_t since, uint32_t spins) {
  std::array<Completion, 16> c;
  const int n = t_.poll(c);
  if (n < 0) fail(std::string("while waiting to post a ") + op + ": " + t_.last_error());
  for (int i = 0; i < n; ++i) {
    if (!c[i].ok) failed_completion(c[i]);
    if (c[i].op == Op::recv) kept_.push_back(c[i]);
  }
  const int64_t limit = std::chrono::nanoseconds(stall_limit_).count();
  if (spins % kPollsPerClockCheck == 0 && spins) {
    const int64_t now = now_ns();
    if (now - since > limit) stalled((std::string("room in the send queue for a ") + op).c_str());
    watch_peer(now);
  }
}

void PeerSession::top_up_receives(uint32_t depth) {
  while (posted_recvs_ < depth) {
    post("receive", [&] { return t_.post_recv(peer_, region_, in_offset(), area_, 0); });
    ++posted_recvs_;
  }
}

void PeerSession::signal_done() {
  post("send", [&] { return t_.post_send(peer_, region_, out_offset(), 0, kDoneWrId, true); });
  for (;;) {
    Completion c = wait_completion("the end-of-run send");
    if (c.wr_id == kDoneWrId && c.op == Op::send) return;
  }
}

void PeerSession::serve_until_done() {
  for (;;) {
    top_up_receives(2);  // the end of run, and a heartbeat on its way
    Completion c = wait_completion("the initiator's end of run or heartbeat", true);
    if (c.op != Op::recv) continue;
    on_receive_consumed();
    if (c.bytes == 0) return;
  }
}

bool PeerSession::is_beat(const Completion& c) noexcept {
  return c.wr_id == kBeatWrId && c.op == Op::send;
}

void PeerSession::beat(int64_t now) noexcept {
  if (now < next_beat_ns_) [[likely]]
    return;
  // A quarter of the wait limit: a late heartbeat or two cannot run the responder's wait out.
  const int64_t interval =
      std::min<int64_t>(1'000'000'000, std::chrono::nanoseconds(stall_limit_).count() / 4);
  // The first call only starts the clock: the responder's receive may not be posted yet.
  if (next_beat_ns_ != 0 &&
      t_.post_send(peer_, region_, out_offset(), kBeatBytes, kBeatWrId, true) != Status::ok)
    return;  // busy (tried again at the next call) or failed (the run's own posts say so)
  next_beat_ns_ = now + interval;
}

void PeerSession::drain() {
  std::array<Completion, 16> c;
  for (;;) {
    int n = t_.poll(c);
    if (n < 0) fail("while draining completions: " + t_.last_error());
    if (n == 0) return;
    for (int i = 0; i < n; ++i) {
      if (!c[i].ok) failed_completion(c[i]);
    }
  }
}

}  // namespace dlcnet
