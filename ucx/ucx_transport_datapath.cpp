// UcxTransport's datapath: posting, UCX callbacks, poll(), and the progress made while the
// caller is away. Never throws, never allocates after connect() (UCX's own request pool warms up
// during the first operations).
#include <poll.h>
#include <time.h>

#include <algorithm>
#include <cstdio>

#include "core/clock.hpp"
#include "ucx/ucx_transport_impl.hpp"

namespace dlcnet::ucx {
namespace {

// Passing the region's memory handle spares UCX a registration-cache lookup per operation.
constexpr uint32_t kCallbackAttrs =
    UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_MEMH;

// The idle-progress thread looks every kIdleCheck (doubling up to kIdleCheckMax while the
// caller keeps calling, so a busy caller is rarely interrupted); once a whole period passed
// without a call it progresses the worker, again after kIdleBusy while that finds work.
constexpr std::chrono::microseconds kIdleCheck{1000};
constexpr std::chrono::microseconds kIdleCheckMax{8000};
constexpr std::chrono::microseconds kIdleBusy{50};
constexpr int kIdleProgressCalls = 64;  // per turn, so the caller never waits long for its turn
// The most progress calls one poll() makes while they find nothing (4 and 32 measured alike).
constexpr int kProgressPerPoll = 4;

// The parameters of a send, put or get: its callback finds the operation's slot in the space UCX
// reserves in every request (RequestSpace), so an operation that completes in place needs none.
ucp_request_param_t op_param(ucp_mem_h memh) noexcept {
  ucp_request_param_t p;
  p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_MEMH;
  p.cb.send = &UcxTransport::on_op_done;
  p.memh = memh;
  return p;
}

}  // namespace

// ---- checks shared by the post_* calls ----
void UcxTransport::set_error(const char* call, int peer, const char* what) noexcept {
  try {  // peer -1: a local check, no peer involved
    const std::string who = peer >= 0 ? "(rank " + std::to_string(peer) + ")" : "()";
    last_error_ = std::string("ucx: ") + call + who + ": " + what;
  } catch (...) {  // out of memory while reporting: keep the previous text
  }
}

Peer* UcxTransport::unusable_peer(int peer, const char* call) noexcept {
  const bool known = static_cast<size_t>(peer) < peers_.size();
  if (!known || !peers_[static_cast<size_t>(peer)].connected) {
    set_error(call, peer, "not a connected peer");
    return nullptr;
  }
  // The transport's reason, which the first failing call reported and later ones repeat.
  char what[160];
  std::snprintf(what, sizeof what, "the endpoint to this peer failed earlier: %s",
                ucs_status_string(peers_[static_cast<size_t>(peer)].failure));
  set_error(call, peer, what);
  return nullptr;
}

LocalRegion* UcxTransport::bad_local_range(RegionId region, size_t offset, size_t length,
                                           const char* call) noexcept {
  char what[128];
  std::snprintf(what, sizeof what, "local region %u [%zu, +%zu) is not registered", region, offset,
                length);
  set_error(call, -1, what);
  return nullptr;
}

RemoteRegion* UcxTransport::bad_remote_range(Peer& p, RegionId region, size_t offset, size_t length,
                                             const char* call) noexcept {
  char what[128];
  std::snprintf(what, sizeof what, "remote region %u [%zu, +%zu) is outside the peer's region",
                region, offset, length);
  set_error(call, p.rank, what);
  return nullptr;
}

// ---- credits, slots and completions ----

inline OpSlot& UcxTransport::start_op(Peer& p, Op op, uint64_t wr_id, uint64_t bytes,
                                      bool signaled) noexcept {
  (op == Op::recv ? p.recvs : p.sends) += 1;
  OpSlot& s = slots_.take();
  s.peer = p.rank;
  s.op = op;
  s.wr_id = wr_id;
  s.bytes = bytes;
  s.signaled = signaled;
  return s;
}

inline void UcxTransport::release_credit(Peer& p, Op op) noexcept {
  uint32_t& used = op == Op::recv ? p.recvs : p.sends;
  assert(used > 0);
  --used;
}

// Inside poll() a completion goes straight into the caller's array and gives its credit back;
// elsewhere (a post that completed in place, the idle-progress thread, wait_event()) it waits
// in ring_ and keeps its credit until poll() hands it out, which bounds ring_ by the depths.
inline void UcxTransport::deliver(const Completion& c) noexcept {
  if (harvest_left_ > 0) {
    *harvest_++ = c;
    --harvest_left_;
    release_credit(peers_[static_cast<size_t>(c.peer)], c.op);
  } else {
    ring_.push(c);
  }
}

inline void UcxTransport::finish(OpSlot& s, ucs_status_t status, uint64_t bytes) noexcept {
  if (status == UCS_OK) [[likely]] {
    if (s.signaled)
      deliver({s.wr_id, s.peer, s.op, true, bytes, nullptr});
    else
      release_credit(peers_[static_cast<size_t>(s.peer)], s.op);
  } else {
    deliver({s.wr_id, s.peer, s.op, false, bytes, ucs_status_string(status)});
  }
  slots_.give(s);
}

// A send, put or get just posted with op_param(). Completed in place (the usual case for a
// small message), it costs nothing more: no slot, and a credit only when its completion is
// reported. Still in flight, it takes a slot and a credit, and its request points at the slot
// (UCX calls a send's callback only from progress, never inside the call that posts it, so the
// slot is in place before the callback can look for it).
inline Status UcxTransport::track(Peer& p, Op op, uint64_t wr_id, uint64_t bytes, bool signaled,
                                  ucs_status_ptr_t request, const char* call) noexcept {
  if (request == nullptr) [[likely]] {
    if (signaled) {
      p.sends += 1;
      ring_.push({wr_id, p.rank, op, true, bytes, nullptr});
    }
    return Status::ok;
  }
  if (UCS_PTR_IS_ERR(request)) [[unlikely]] {
    set_error(call, p.rank, ucs_status_string(UCS_PTR_STATUS(request)));
    return Status::failed;
  }
  OpSlot& s = start_op(p, op, wr_id, bytes, signaled);
  s.request = request;
  static_cast<RequestSpace*>(request)->slot = &s;
  return Status::ok;
}

inline Status UcxTransport::after_post(Peer& p, OpSlot& s, ucs_status_ptr_t request,
                                       const char* call) noexcept {
  if (request == nullptr) {  // completed in place: UCX calls no callback, so we finish here
    finish(s, UCS_OK, s.bytes);
    return Status::ok;
  }
  if (UCS_PTR_IS_ERR(request)) [[unlikely]]
    return post_failed(p, s, UCS_PTR_STATUS(request), call);
  // A callback run inside the post (receives, see post_recv) already finished the slot and
  // freed the request.
  if (s.in_use) s.request = request;
  return Status::ok;
}

Status UcxTransport::post_failed(Peer& p, OpSlot& s, ucs_status_t status,
                                 const char* call) noexcept {
  release_credit(p, s.op);
  slots_.give(s);
  set_error(call, p.rank, ucs_status_string(status));
  return Status::failed;
}

void UcxTransport::on_op_done(void* request, ucs_status_t status, void* /*user_data*/) noexcept {
  OpSlot* s = static_cast<RequestSpace*>(request)->slot;
  s->owner->finish(*s, status, s->bytes);
  ucp_request_free(request);
}

void UcxTransport::on_send_done(void* request, ucs_status_t status, void* user_data) noexcept {
  auto* s = static_cast<OpSlot*>(user_data);
  s->owner->finish(*s, status, s->bytes);
  ucp_request_free(request);
}

void UcxTransport::on_recv_done(void* request, ucs_status_t status, const ucp_tag_recv_info_t* info,
                                void* user_data) noexcept {
  auto* s = static_cast<OpSlot*>(user_data);
  s->owner->finish(*s, status, info != nullptr ? info->length : 0);
  ucp_request_free(request);
}

void UcxTransport::on_peer_error(void* arg, ucp_ep_h /*ep*/, ucs_status_t status) noexcept {
  auto* p = static_cast<Peer*>(arg);
  p->failed = true;
  p->failure = status;
  p->owner->fatal_ = true;
  try {  // may run on the idle-progress thread: poll() hands the text to last_error_
    p->owner->fatal_error_ = "ucx: endpoint to rank " + std::to_string(p->rank) +
                             " failed: " + ucs_status_string(status);
  } catch (...) {  // out of memory while reporting: keep the previous text
  }
}

// ---- posting ----

Status UcxTransport::post_send(int peer, RegionId region, size_t offset, size_t length,
                               uint64_t wr_id, bool signaled) noexcept {
  CallerTurn turn(gate_);
  note_call();
  Peer* p = usable_peer(peer, "ucp_tag_send_nbx");
  LocalRegion* r = p ? local_range(region, offset, length, "ucp_tag_send_nbx") : nullptr;
  if (r == nullptr) return Status::failed;
  if (p->sends >= opts_.send_depth) return Status::busy;
  ucp_request_param_t prm = op_param(r->memh.get());
  return track(
      *p, Op::send, wr_id, length, signaled,
      ucp_tag_send_nbx(p->ep.get(), r->base + offset, length, make_tag(kDataKind, rank_), &prm),
      "ucp_tag_send_nbx");
}

Status UcxTransport::post_recv(int peer, RegionId region, size_t offset, size_t length,
                               uint64_t wr_id) noexcept {
  CallerTurn turn(gate_);
  note_call();
  Peer* p = usable_peer(peer, "ucp_tag_recv_nbx");
  LocalRegion* r = p ? local_range(region, offset, length, "ucp_tag_recv_nbx") : nullptr;
  if (r == nullptr) return Status::failed;
  if (p->recvs >= opts_.recv_depth) return Status::busy;
  OpSlot& s = start_op(*p, Op::recv, wr_id, length, true);
  ucp_request_param_t prm;
  // UCX 1.13 does not fill recv_info on immediate completion, so the arrived length would be
  // lost; NO_IMM_CMPL makes it call on_recv_done (with the length) inside this call instead.
  prm.op_attr_mask = kCallbackAttrs | UCP_OP_ATTR_FLAG_NO_IMM_CMPL;
  prm.cb.recv = &UcxTransport::on_recv_done;
  prm.user_data = &s;
  prm.memh = r->memh.get();
  ucs_status_ptr_t req = ucp_tag_recv_nbx(worker_.get(), r->base + offset, length,
                                          make_tag(kDataKind, peer), kTagFull, &prm);
  return after_post(*p, s, req, "ucp_tag_recv_nbx");
}

Status UcxTransport::post_write(int peer, RegionId region, size_t offset, size_t length,
                                size_t remote_offset, uint64_t wr_id, bool signaled) noexcept {
  CallerTurn turn(gate_);
  note_call();
  Peer* p = usable_peer(peer, "ucp_put_nbx");
  LocalRegion* r = p ? local_range(region, offset, length, "ucp_put_nbx") : nullptr;
  RemoteRegion* rr = r ? remote_range(*p, region, remote_offset, length, "ucp_put_nbx") : nullptr;
  if (rr == nullptr) return Status::failed;
  if (p->sends >= opts_.send_depth) return Status::busy;
  const uint64_t raddr = rr->addr + remote_offset;
  if (!signaled) {
    ucp_request_param_t prm = op_param(r->memh.get());
    return track(*p, Op::write, wr_id, length, false,
                 ucp_put_nbx(p->ep.get(), r->base + offset, length, raddr, rr->rkey.get(), &prm),
                 "ucp_put_nbx");
  }
  OpSlot& s = start_op(*p, Op::write, wr_id, length, true);
  // Signaled: complete when the data is at the target. The put's own request is released
  // at once (UCX frees it when done); the flush after it carries the completion.
  ucp_request_param_t put{};
  put.op_attr_mask = UCP_OP_ATTR_FIELD_MEMH;
  put.memh = r->memh.get();
  ucs_status_ptr_t req =
      ucp_put_nbx(p->ep.get(), r->base + offset, length, raddr, rr->rkey.get(), &put);
  if (UCS_PTR_IS_ERR(req)) return after_post(*p, s, req, "ucp_put_nbx");
  if (req != nullptr) ucp_request_free(req);
  ucp_request_param_t flush;
  flush.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  flush.cb.send = &UcxTransport::on_send_done;
  flush.user_data = &s;
  return after_post(*p, s, ucp_ep_flush_nbx(p->ep.get(), &flush), "ucp_ep_flush_nbx");
}

Status UcxTransport::post_read(int peer, RegionId region, size_t offset, size_t length,
                               size_t remote_offset, uint64_t wr_id, bool signaled) noexcept {
  CallerTurn turn(gate_);
  note_call();
  Peer* p = usable_peer(peer, "ucp_get_nbx");
  LocalRegion* r = p ? local_range(region, offset, length, "ucp_get_nbx") : nullptr;
  RemoteRegion* rr = r ? remote_range(*p, region, remote_offset, length, "ucp_get_nbx") : nullptr;
  if (rr == nullptr) return Status::failed;
  if (p->sends >= opts_.send_depth) return Status::busy;
  ucp_request_param_t prm = op_param(r->memh.get());
  return track(*p, Op::read, wr_id, length, signaled,
               ucp_get_nbx(p->ep.get(), r->base + offset, length, rr->addr + remote_offset,
                           rr->rkey.get(), &prm),
               "ucp_get_nbx");
}

// ---- progress ----

int UcxTransport::poll(std::span<Completion> out) noexcept {
  if (!worker_) return 0;
  CallerTurn turn(gate_);
  note_call();
  size_t n = 0;
  for (; n < out.size() && !ring_.empty(); ++n) {  // older completions first
    out[n] = ring_.pop();
    release_credit(peers_[static_cast<size_t>(out[n].peer)], out[n].op);
  }
  // While nothing completes, progress a few times per call: a caller waiting for a completion
  // then spends its time in UCX's loop rather than in the calls around it, which shortens the
  // delay between an arrival and its detection.
  Completion* const first = out.data() + n;
  harvest_ = first;
  harvest_left_ = out.size() - n;
  for (int i = 0; i < kProgressPerPoll; ++i) {
    if (ucp_worker_progress(worker_.get()) != 0 || harvest_ != first || !ring_.empty()) break;
  }
  n = static_cast<size_t>(harvest_ - out.data());
  harvest_ = nullptr;
  harvest_left_ = 0;
  if (n == 0 && fatal_) {
    if (!fatal_error_.empty()) last_error_ = fatal_error_;
    return -1;
  }
  return static_cast<int>(n);
}

// Armed, the worker's descriptor becomes readable on the next event; ucp_worker_arm() answers
// BUSY while events are pending, which progress serves. An event need not end in a completion
// (a wire-up message, a rendezvous step, a stale signal), so the wait goes on, progressing and
// re-arming, until one is waiting or the time is up. The caller keeps its turn at the worker
// throughout, so that the idle-progress thread cannot take the completion (and its time stamp).
void UcxTransport::wait_event(int64_t max_ns) noexcept {
  if (event_fd_ < 0 || !worker_ || max_ns <= 0) return;
  CallerTurn turn(gate_);
  note_call();
  const int64_t deadline = now_ns() + max_ns;
  for (;;) {
    while (ucp_worker_progress(worker_.get()) != 0) {
    }
    if (!ring_.empty() || fatal_) return;
    const ucs_status_t st = ucp_worker_arm(worker_.get());
    if (st == UCS_ERR_BUSY) continue;
    if (st != UCS_OK) {
      set_error("ucp_worker_arm", -1, ucs_status_string(st));
      return;
    }
    const int64_t left = deadline - now_ns();
    if (left <= 0) return;
    pollfd pfd{event_fd_, POLLIN, 0};
    const timespec ts{static_cast<time_t>(left / 1'000'000'000),
                      static_cast<long>(left % 1'000'000'000)};
    if (ppoll(&pfd, 1, &ts, nullptr) <= 0) return;  // time is up (or a signal)
  }
}

// ---- progress while the caller is away ----
//
// UCX moves data only inside ucp_worker_progress(). A caller that posts a send and then blocks
// elsewhere (a bootstrap barrier after the last reply of a ping-pong, a report, a sleep) would
// strand every operation that needs this side's progress: a rendezvous send (the peer's
// receive waits for this side to answer its request or to push the data), a put emulated over
// active messages, the acknowledgement UCX owes the peer for its own rendezvous. Verbs has no
// such requirement (the NIC works on its own), and no caller of Transport plans for it, so the
// worker keeps progressing here whenever the caller has made no datapath call for a while.

void UcxTransport::start_idle_progress() {
  idle_stop_ = false;
  idle_thread_ = std::thread([this] { idle_progress_loop(); });
}

void UcxTransport::stop_idle_progress() noexcept {
  if (!idle_thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lk(idle_mu_);
    idle_stop_ = true;
  }
  idle_cv_.notify_all();
  idle_thread_.join();
}

void UcxTransport::idle_progress_loop() noexcept {
  uint64_t seen = calls_.load(std::memory_order_relaxed);
  std::chrono::microseconds wait = kIdleCheck;
  std::unique_lock<std::mutex> lk(idle_mu_);
  while (!idle_cv_.wait_for(lk, wait, [this] { return idle_stop_; })) {
    const uint64_t now = calls_.load(std::memory_order_relaxed);
    if (now != seen) {  // the caller is progressing by itself: look less often
      seen = now;
      wait = std::min(wait * 2, kIdleCheckMax);
      continue;
    }
    wait = kIdleCheck;
    if (!gate_.idle_try_enter()) continue;  // the caller just came back
    unsigned events = 0;
    for (int i = 0; i < kIdleProgressCalls; ++i) {
      const unsigned e = ucp_worker_progress(worker_.get());
      if (e == 0) break;
      events += e;
    }
    gate_.idle_leave();
    if (events > 0) wait = kIdleBusy;
  }
}

}  // namespace dlcnet::ucx
