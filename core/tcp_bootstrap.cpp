#include "core/tcp_bootstrap.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <iostream>
#include <map>

#include "core/error.hpp"
#include "core/socket.hpp"
#include "core/tcp_bootstrap_impl.hpp"

namespace dlcnet {
namespace {

std::string list_ranks(const std::vector<int>& ranks) {
  std::string s;
  for (size_t i = 0; i < ranks.size() && i < 16; ++i)
    s += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > 16) s += ", ... (" + std::to_string(ranks.size()) + " in all)";
  return s;
}

Bytes encode_blobs(uint64_t round, const std::vector<Bytes>& blobs) {
  WireWriter w;
  w.u64(round).u32(static_cast<uint32_t>(blobs.size()));
  for (const auto& b : blobs) w.blob(b);
  return w.take();
}

std::vector<Bytes> decode_blobs(const Bytes& payload, uint64_t want_round, size_t want_count,
                                const std::string& peer) {
  WireReader r(payload, "collective from " + peer);
  uint64_t round = r.u64("round");
  uint32_t n = r.u32("count");
  if (round != want_round || n != want_count) {
    throw ProtocolError(peer + " is out of step: collective round " + std::to_string(round) +
                        " with " + std::to_string(n) + " blobs, expected round " +
                        std::to_string(want_round) + " with " + std::to_string(want_count));
  }
  std::vector<Bytes> out(n);
  for (auto& b : out) b = r.blob("blob");
  r.expect_end();
  return out;
}

}  // namespace

TcpBootstrap::TcpBootstrap(TcpBootstrapConfig cfg) : cfg_(std::move(cfg)), impl_(new Impl) {
  if (cfg_.size < 1 || cfg_.rank < 0 || cfg_.rank >= cfg_.size) {
    throw Error("bootstrap: rank " + std::to_string(cfg_.rank) + " is outside world size " +
                std::to_string(cfg_.size));
  }
  if (cfg_.rank == 0 && cfg_.size > 1) impl_->listener = tcp_listen(cfg_.bind_host, cfg_.port);
}

TcpBootstrap::~TcpBootstrap() = default;

uint16_t TcpBootstrap::port() const noexcept {
  return impl_->listener.valid() ? local_port(impl_->listener) : cfg_.port;
}

void TcpBootstrap::join() {
  if (impl_->joined || cfg_.size == 1) {
    impl_->joined = true;
    return;
  }
  const Deadline deadline = Deadline::after(cfg_.join_timeout);
  if (cfg_.rank != 0) {
    const std::string coord =
        "coordinator " + cfg_.coordinator_host + ":" + std::to_string(cfg_.port);
    Socket s = tcp_connect(cfg_.coordinator_host, cfg_.port, deadline,
                           "rank " + std::to_string(cfg_.rank));
    WireWriter w;
    w.u32(static_cast<uint32_t>(cfg_.rank))
        .u32(static_cast<uint32_t>(cfg_.size))
        .u64(cfg_.job_token);
    send_frame(s, kHello, w.bytes(), deadline, coord, cfg_.wire_version);
    Frame f = recv_frame(s, deadline, coord);
    if (f.type == kReject) {
      WireReader r(f.payload, coord);
      throw ProtocolError(coord + " turned this rank away: " + r.str("reason"));
    }
    if (f.type != kWelcome)
      throw ProtocolError(coord + ": unexpected frame type " + std::to_string(f.type));
    impl_->peers.push_back(std::move(s));
    impl_->names.push_back(coord);
    impl_->joined = true;
    return;
  }
  impl_->peers.resize(cfg_.size);
  impl_->names.resize(cfg_.size);
  int missing = cfg_.size - 1;
  while (missing > 0) {
    std::string from;
    auto s = tcp_accept(impl_->listener, deadline, &from);
    if (!s) {
      std::vector<int> absent;
      for (int r = 1; r < cfg_.size; ++r)
        if (!impl_->peers[r].valid()) absent.push_back(r);
      throw TimeoutError("bootstrap: waited " + std::to_string(cfg_.join_timeout.count() / 1000) +
                         " s on port " + std::to_string(port()) + " for rank" +
                         (absent.size() > 1 ? "s " : " ") + list_ranks(absent) +
                         " to connect; none came");
    }
    // A connection that is not one of ours is turned away and the wait goes on: a stray
    // process or scanner must not kill the job.
    std::string reason;
    int rank = -1;
    try {
      Frame f = recv_frame(*s, deadline.earlier(Deadline::after(std::chrono::seconds(5))), from);
      if (f.type != kHello)
        throw ProtocolError(from + ": expected a hello, got frame type " + std::to_string(f.type));
      WireReader r(f.payload, "hello from " + from);
      rank = static_cast<int>(r.u32("rank"));
      int size = static_cast<int>(r.u32("size"));
      uint64_t token = r.u64("job token");
      r.expect_end();
      if (token != cfg_.job_token)
        reason = "job token differs (another job?)";
      else if (size != cfg_.size)
        reason =
            "world size " + std::to_string(size) + " differs from " + std::to_string(cfg_.size);
      else if (rank <= 0 || rank >= cfg_.size)
        reason = "rank " + std::to_string(rank) + " is out of range";
      else if (impl_->peers[rank].valid())
        reason = "rank " + std::to_string(rank) + " joined already";
    } catch (const Error& e) {
      reason = e.what();
    }
    if (!reason.empty()) {
      std::cerr << "bootstrap: turned away " << from << ": " << reason << '\n';
      try {
        WireWriter w;
        w.str(reason);
        send_frame(*s, kReject, w.bytes(), Deadline::after(std::chrono::seconds(1)), from);
      } catch (const Error&) {
        // Best effort: the peer may not speak our protocol at all.
      }
      continue;
    }
    send_frame(*s, kWelcome, {}, deadline, from);
    impl_->peers[rank] = std::move(*s);
    impl_->names[rank] = "rank " + std::to_string(rank) + " (" + from + ")";
    --missing;
  }
  impl_->listener = Socket();
  impl_->joined = true;
}

std::vector<Bytes> TcpBootstrap::alltoall(const std::vector<Bytes>& to_each) {
  const size_t n = static_cast<size_t>(cfg_.size);
  if (to_each.size() != n) throw Error("bootstrap: alltoall needs one blob per rank");
  if (!impl_->joined) join();
  const uint64_t round = impl_->round++;
  const Deadline deadline = Deadline::after(cfg_.op_timeout);
  if (n == 1) return std::vector<Bytes>(1);
  if (cfg_.rank != 0) {
    send_frame(impl_->peers[0], kCollective, encode_blobs(round, to_each), deadline,
               impl_->names[0]);
    Frame f = recv_frame(impl_->peers[0], deadline, impl_->names[0]);
    if (f.type == kAbort) throw_verdict(f);
    if (f.type != kResult)
      throw ProtocolError(impl_->names[0] + ": unexpected frame type " + std::to_string(f.type));
    return decode_blobs(f.payload, round, n, impl_->names[0]);
  }
  // Coordinator: gather everyone's row as it arrives, so a timeout can name who is missing.
  std::vector<std::vector<Bytes>> rows(n);
  rows[0] = to_each;
  std::vector<int> pending;
  for (int r = 1; r < cfg_.size; ++r) pending.push_back(r);
  while (!pending.empty()) {
    std::vector<pollfd> fds;
    for (int r : pending) fds.push_back({impl_->peers[r].fd(), POLLIN, 0});
    int rc = ::poll(fds.data(), fds.size(), deadline.remaining_ms());
    if (rc < 0 && errno != EINTR) throw_errno("bootstrap: poll");
    if (rc == 0) {
      throw TimeoutError("bootstrap: collective " + std::to_string(round) + " timed out after " +
                         std::to_string(cfg_.op_timeout.count() / 1000) + " s waiting for rank" +
                         (pending.size() > 1 ? "s " : " ") + list_ranks(pending));
    }
    std::vector<int> still;
    for (size_t i = 0; i < fds.size(); ++i) {
      int r = pending[i];
      if (!fds[i].revents) {
        still.push_back(r);
        continue;
      }
      Frame f;
      try {
        f = recv_frame(impl_->peers[r], deadline, impl_->names[r]);
      } catch (const TimeoutError&) {
        throw;
      } catch (const Error& e) {
        abort_job(r, e.what());
      }
      if (f.type == kFailed) throw_report(r, f);
      if (f.type != kCollective)
        throw ProtocolError(impl_->names[r] + ": unexpected frame type " + std::to_string(f.type));
      rows[r] = decode_blobs(f.payload, round, n, impl_->names[r]);
    }
    pending = std::move(still);
  }
  for (int r = 1; r < cfg_.size; ++r) {
    std::vector<Bytes> column(n);
    for (size_t src = 0; src < n; ++src)
      if (src != static_cast<size_t>(r)) column[src] = std::move(rows[src][r]);
    send_frame(impl_->peers[r], kResult, encode_blobs(round, column), deadline, impl_->names[r]);
  }
  std::vector<Bytes> mine(n);
  for (size_t src = 1; src < n; ++src) mine[src] = std::move(rows[src][0]);
  return mine;
}

std::vector<Bytes> TcpBootstrap::allgather(const Bytes& mine) {
  std::vector<Bytes> out = alltoall(std::vector<Bytes>(cfg_.size, mine));
  out[cfg_.rank] = mine;
  return out;
}

void TcpBootstrap::barrier() {
  alltoall(std::vector<Bytes>(cfg_.size));
}

void TcpBootstrap::abort_job(int dead, const std::string& reason) {
  const std::string text = impl_->names[dead] + " is gone: " + reason;
  broadcast_verdict(text);
  throw Error(text);
}

void TcpBootstrap::throw_verdict(const Frame& abort) {
  impl_->verdict = WireReader(abort.payload, impl_->names[0]).str("reason");
  throw Error(impl_->verdict);
}

void TcpBootstrap::throw_report(int rank, const Frame& failed) {
  std::string why = WireReader(failed.payload, impl_->names[rank]).str("reason");
  impl_->reports.emplace_back(rank, why);
  throw Error(impl_->names[rank] + " failed: " + why);
}

void TcpBootstrap::check_peers() {
  if (!impl_->joined || cfg_.size == 1) return;
  const bool root = cfg_.rank == 0;
  const int first = root ? 1 : 0;
  const int last = root ? cfg_.size : 1;
  for (int r = first; r < last; ++r) {
    const Socket& s = impl_->peers[r];
    pollfd p{s.fd(), POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) continue;
    if (auto why = connection_lost(s)) {
      if (root) abort_job(r, *why);
      throw Error(impl_->names[0] + " (rank 0) is gone: " + *why);
    }
    // Peek only: data here may be the start of the peer's next collective, not ours to take.
    uint8_t hdr[kFrameHeaderSize];
    const ssize_t n = ::recv(s.fd(), hdr, sizeof hdr, MSG_PEEK | MSG_DONTWAIT);
    if (n != static_cast<ssize_t>(kFrameHeaderSize)) continue;
    const FrameHeader h = decode_frame_header(
        std::span<const uint8_t, kFrameHeaderSize>(hdr, kFrameHeaderSize), impl_->names[r]);
    if (h.type != (root ? kFailed : kAbort)) continue;
    Frame f = recv_frame(s, Deadline::after(std::chrono::seconds(1)), impl_->names[r]);
    if (root) throw_report(r, f);
    throw_verdict(f);
  }
}

}  // namespace dlcnet
