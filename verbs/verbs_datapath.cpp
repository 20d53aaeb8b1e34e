// Datapath half of VerbsTransport: post_*, poll() and async events. Never throws; failures
// return Status::failed (or -1 from poll) with last_error() set. Region bounds are the
// caller's contract, checked with assert in debug builds only.
#include <cassert>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "verbs/verbs_transport_impl.hpp"

namespace dlcnet::verbs {

Status VerbsTransport::fail(const char* fmt, ...) noexcept {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  last_error_.assign(buf);  // fits the capacity reserved at construction: no allocation
  return Status::failed;
}

PeerConn* VerbsTransport::peer_or_fail(int peer) noexcept {
  const int32_t slot =
      peer >= 0 && static_cast<size_t>(peer) < slot_of_rank_.size() ? slot_of_rank_[peer] : -1;
  if (slot < 0) {
    fail("%s: rank %d is not a connected peer", dev_.c_str(), peer);
    return nullptr;
  }
  PeerConn& p = peers_[slot];
  if (p.failed || fatal_) {
    fail("%s: rank %d: the connection failed earlier: %s", dev_.c_str(), peer, fault_.c_str());
    return nullptr;
  }
  return &p;
}

Status VerbsTransport::post_sq(int peer, ibv_wr_opcode opcode, Op op, RegionId region,
                               size_t offset, size_t length, size_t remote_offset, uint64_t wr_id,
                               bool signaled) noexcept {
  PeerConn* p = peer_or_fail(peer);
  if (p == nullptr) return Status::failed;
  assert(region < regions_.size());
  const LocalRegion& local = regions_[region];
  assert(offset <= local.length && length <= local.length - offset);
  if (length > max_msg_) {
    return fail("%s: %s of %zu bytes to rank %d exceeds the port's max_msg_sz %llu", dev_.c_str(),
                to_string(op), length, peer, static_cast<unsigned long long>(max_msg_));
  }
  if (p->sq.full()) return Status::busy;

  const uint64_t seq = p->sq.next_seq();
  const bool signal = p->sq.must_signal(signaled);
  p->send_slots[seq & p->send_mask] = {wr_id, static_cast<uint32_t>(length), op, signaled};
  ibv_send_wr& wr = p->send_wr;
  wr.wr_id = p->id_base | (seq & kSeqMask);
  wr.opcode = opcode;
  // A zero-length SGE means 2 GiB on some NICs (mlx5): send none instead.
  wr.num_sge = length != 0 ? 1 : 0;
  unsigned flags = signal ? IBV_SEND_SIGNALED : 0;
  if (length <= inline_granted_ && opcode != IBV_WR_RDMA_READ) flags |= IBV_SEND_INLINE;
  wr.send_flags = flags;
  p->send_sge.addr = local.addr + offset;
  p->send_sge.length = static_cast<uint32_t>(length);
  p->send_sge.lkey = local.lkey;
  if (opcode != IBV_WR_SEND) {
    const RemoteRegion& remote = p->remote[region];  // same count on both sides (connect)
    assert(remote_offset <= remote.length && length <= remote.length - remote_offset);
    wr.wr.rdma.remote_addr = remote.addr + remote_offset;
    wr.wr.rdma.rkey = remote.rkey;
  }
  ibv_send_wr* bad = nullptr;
  if (int rc = ibv_post_send(p->raw_qp, &wr, &bad); rc != 0) {
    return fail("%s: ibv_post_send(rank %d, %s, length=%zu): %s (errno %d)", dev_.c_str(), peer,
                to_string(op), length, std::strerror(rc), rc);
  }
  p->sq.on_posted(signal);
  return Status::ok;
}

Status VerbsTransport::post_send(int peer, RegionId region, size_t offset, size_t length,
                                 uint64_t wr_id, bool signaled) noexcept {
  return post_sq(peer, IBV_WR_SEND, Op::send, region, offset, length, 0, wr_id, signaled);
}

Status VerbsTransport::post_write(int peer, RegionId region, size_t offset, size_t length,
                                  size_t remote_offset, uint64_t wr_id, bool signaled) noexcept {
  return post_sq(peer, IBV_WR_RDMA_WRITE, Op::write, region, offset, length, remote_offset, wr_id,
                 signaled);
}

Status VerbsTransport::post_read(int peer, RegionId region, size_t offset, size_t length,
                                 size_t remote_offset, uint64_t wr_id, bool signaled) noexcept {
  return post_sq(peer, IBV_WR_RDMA_READ, Op::read, region, offset, length, remote_offset, wr_id,
                 signaled);
}

Status VerbsTransport::post_recv(int peer, RegionId region, size_t offset, size_t length,
                                 uint64_t wr_id) noexcept {
  PeerConn* p = peer_or_fail(peer);
  if (p == nullptr) return Status::failed;
  assert(region < regions_.size());
  const LocalRegion& local = regions_[region];
  assert(offset <= local.length && length <= local.length - offset);
  if (p->rq.full()) return Status::busy;

  const uint64_t seq = p->rq.next_seq();
  p->recv_slots[seq & p->recv_mask] = wr_id;
  ibv_recv_wr& wr = p->recv_wr;
  wr.wr_id = kRecvFlag | p->id_base | (seq & kSeqMask);
  wr.num_sge = length != 0 ? 1 : 0;
  p->recv_sge.addr = local.addr + offset;
  p->recv_sge.length = static_cast<uint32_t>(length);
  p->recv_sge.lkey = local.lkey;
  ibv_recv_wr* bad = nullptr;
  if (int rc = ibv_post_recv(p->raw_qp, &wr, &bad); rc != 0) {
    return fail("%s: ibv_post_recv(rank %d, length=%zu): %s (errno %d)", dev_.c_str(), peer, length,
                std::strerror(rc), rc);
  }
  p->rq.on_posted();
  return Status::ok;
}

void VerbsTransport::on_failed_completion(PeerConn& p, const Completion& c,
                                          const ibv_wc& wc) noexcept {
  if (p.failed) return;  // later ones are flushes of the same failure
  p.failed = true;
  fail("%s: %s to/from rank %d (wr_id %llu) failed: %s (status %d, vendor_err 0x%x)", dev_.c_str(),
       to_string(c.op), p.rank, static_cast<unsigned long long>(c.wr_id), c.error,
       static_cast<int>(wc.status), wc.vendor_err);
  if (fault_.empty()) fault_.assign(last_error_);
}

bool VerbsTransport::take(const ibv_wc& wc, Completion& c) noexcept {
  const uint64_t id = wc.wr_id;
  const auto slot = static_cast<size_t>((id & ~kRecvFlag) >> kSeqBits);
  assert(slot < peers_.size());
  PeerConn& p = peers_[slot];
  assert(wc.qp_num == p.raw_qp->qp_num);
  const bool ok = wc.status == IBV_WC_SUCCESS;
  bool report = true;
  if ((id & kRecvFlag) != 0) {
    const uint64_t seq = p.rq.widen(id & kSeqMask, kSeqBits);
    p.rq.on_completed(seq);
    c.wr_id = p.recv_slots[seq & p.recv_mask];
    c.op = Op::recv;
    c.bytes = ok ? wc.byte_len : 0;
  } else {
    // Retires this request and every unsignaled one before it (RC completes in order).
    const uint64_t seq = p.sq.widen(id & kSeqMask, kSeqBits);
    p.sq.on_completed(seq);
    const SendSlot& s = p.send_slots[seq & p.send_mask];
    c.wr_id = s.wr_id;
    c.op = s.op;
    c.bytes = ok ? s.length : 0;
    // A forced signal is retired silently; a failure is reported even for unsignaled ones.
    report = s.report || !ok;
  }
  c.peer = p.rank;
  c.ok = ok;
  c.error = ok ? nullptr : ibv_wc_status_str(wc.status);
  if (!ok) on_failed_completion(p, c, wc);
  return report;
}

int VerbsTransport::poll(std::span<Completion> out) noexcept {
  if ((++poll_calls_ & (kAsyncCheckEvery - 1)) == 0) check_async_events();
  size_t n = 0;
  if (cq_) {
    ibv_wc wc[kPollBatch];
    while (n < out.size()) {
      const int want = static_cast<int>(std::min<size_t>(kPollBatch, out.size() - n));
      const int got = ibv_poll_cq(cq_.get(), want, wc);
      if (got < 0) {
        fatal_ = true;
        fail("%s: ibv_poll_cq failed (%d)", dev_.c_str(), got);
        if (fault_.empty()) fault_.assign(last_error_);
        return -1;
      }
      for (int i = 0; i < got; ++i) {
        if (take(wc[i], out[n])) ++n;
      }
      if (got < want) break;
    }
  }
  // Completions first (they say what failed); the failure itself once the CQ is drained.
  if (n == 0 && fatal_) {
    last_error_.assign(fault_);
    return -1;
  }
  return static_cast<int>(n);
}

bool VerbsTransport::async_is_ours(const AsyncFault& f, const void* owner) noexcept {
  const auto* self = static_cast<const VerbsTransport*>(owner);
  if (f.qp != nullptr) {
    for (const PeerConn& p : self->peers_) {
      if (p.raw_qp == f.qp) return true;
    }
    return false;
  }
  if (f.cq != nullptr) return f.cq == self->cq_.get();
  if (f.port != 0) return f.port == self->port_.port;
  return true;  // device fatal
}

void VerbsTransport::check_async_events() noexcept {
  const auto f = drain_async_events(ctx_, &VerbsTransport::async_is_ours, this);
  if (!f) return;
  fatal_ = true;
  const char* what = ibv_event_type_str(f->type);
  if (f->qp != nullptr) {
    int rank = -1;
    for (PeerConn& p : peers_) {
      if (p.raw_qp == f->qp) {
        p.failed = true;
        rank = p.rank;
      }
    }
    fail("%s: async event: %s on the QP to rank %d (qpn %u)", dev_.c_str(), what, rank,
         f->qp->qp_num);
  } else if (f->cq != nullptr) {
    fail("%s: async event: %s on the completion queue (%d entries): completions were lost",
         dev_.c_str(), what, cq_entries_);
  } else if (f->port != 0) {
    fail("%s: async event: %s on port %d", dev_.c_str(), what, f->port);
  } else {
    fail("%s: async event: %s", dev_.c_str(), what);
  }
  if (fault_.empty()) fault_.assign(last_error_);
}

}  // namespace dlcnet::verbs
