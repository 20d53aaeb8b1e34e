#include "core/tcp_bootstrap.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <string>
#include <thread>

#include "core/error.hpp"
#include "core/frame_reader.hpp"
#include "core/socket.hpp"
#include "core/stall_error.hpp"
#include "core/stop_budget.hpp"
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

}  // namespace

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

BootstrapTraffic TcpBootstrap::traffic() const noexcept {
  return impl_->traffic;
}

void TcpBootstrap::set_phase(std::string phase) {
  impl_->phase = std::move(phase);
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
    // Turned away to make room for others (a flood of connections at rank 0 while this rank
    // was slow to say hello): connect again, after a pause that grows, until the deadline.
    for (int attempt = 1;; ++attempt) {
      Socket s = tcp_connect(cfg_.coordinator_host, cfg_.port, deadline,
                             "rank " + std::to_string(cfg_.rank));
      WireWriter w;
      w.u32(static_cast<uint32_t>(cfg_.rank))
          .u32(static_cast<uint32_t>(cfg_.size))
          .u64(cfg_.job_token);
      send_frame(s, kHello, w.bytes(), deadline, coord, cfg_.wire_version);
      Frame f = recv_frame(s, deadline, coord, kJoinReplyMax);
      impl_->traffic = {1, 1, kFrameHeaderSize + f.payload.size()};
      if (f.type == kReject) {
        WireReader r(f.payload, coord);
        const std::string reason = r.str("reason", kReasonMax);
        if (reason.find(kMakeRoomReason) != std::string::npos && !deadline.expired()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(std::min(10 * attempt, 200)));
          continue;
        }
        throw ProtocolError(coord + " turned this rank away: " + reason);
      }
      if (f.type != kWelcome)
        throw ProtocolError(coord + ": unexpected frame type " + std::to_string(f.type));
      impl_->peers.push_back(std::move(s));
      impl_->names.push_back(coord);
      impl_->joined = true;
      return;
    }
  }
  accept_ranks(deadline);
  impl_->joined = true;
}

std::vector<Bytes> TcpBootstrap::alltoall(const std::vector<Bytes>& to_each) {
  const size_t n = static_cast<size_t>(cfg_.size);
  if (to_each.size() != n) throw Error("bootstrap: alltoall needs one blob per rank");
  if (!impl_->joined) join();
  const uint64_t round = impl_->round++;
  const Deadline deadline = Deadline::after(cfg_.op_timeout);
  if (n == 1) return std::vector<Bytes>(1);
  if (cfg_.rank != 0) return via_root(round, to_each, deadline);
  std::vector<std::vector<Bytes>> rows = gather_rows(round, n, to_each, deadline);
  std::vector<Bytes> frames(n);
  for (size_t r = 1; r < n; ++r) {
    std::vector<Bytes> column(n);
    for (size_t src = 0; src < n; ++src)
      if (src != r) column[src] = std::move(rows[src][r]);
    frames[r] = encode_frame(kResult, encode_blobs(round, column));
  }
  std::vector<const Bytes*> to(n);
  for (size_t r = 1; r < n; ++r) to[r] = &frames[r];
  fan_out(to, deadline);
  std::vector<Bytes> mine(n);
  for (size_t src = 1; src < n; ++src) mine[src] = std::move(rows[src][0]);
  return mine;
}

// Each rank sends its blob once, and rank 0 sends every rank the same frame of all of them:
// n blobs in and one frame encoded at rank 0, not n squared (an alltoall of copies).
std::vector<Bytes> TcpBootstrap::allgather(const Bytes& mine) {
  const size_t n = static_cast<size_t>(cfg_.size);
  if (!impl_->joined) join();
  const uint64_t round = impl_->round++;
  const Deadline deadline = Deadline::after(cfg_.op_timeout);
  if (n == 1) return {mine};
  if (cfg_.rank != 0) {
    std::vector<Bytes> all = via_root(round, {mine}, deadline);
    all[static_cast<size_t>(cfg_.rank)] = mine;
    return all;
  }
  std::vector<std::vector<Bytes>> rows = gather_rows(round, 1, {mine}, deadline);
  std::vector<Bytes> all(n);
  for (size_t r = 0; r < n; ++r) all[r] = std::move(rows[r][0]);
  const Bytes frame = encode_frame(kResult, encode_blobs(round, all));
  fan_out(std::vector<const Bytes*>(n, &frame), deadline);
  return all;
}

std::vector<Bytes> TcpBootstrap::via_root(uint64_t round, const std::vector<Bytes>& row,
                                          Deadline deadline) {
  send_frame(impl_->peers[0], kCollective, encode_blobs(round, row), deadline, impl_->names[0]);
  Frame f = recv_frame(impl_->peers[0], deadline, impl_->names[0]);
  impl_->traffic.frames_sent += 1;
  impl_->traffic.frames_received += 1;
  impl_->traffic.bytes_received += kFrameHeaderSize + f.payload.size();
  if (f.type == kAbort) throw_verdict(f);
  if (f.type != kResult)
    throw ProtocolError(impl_->names[0] + ": unexpected frame type " + std::to_string(f.type));
  return decode_blobs(f.payload, round, static_cast<size_t>(cfg_.size), impl_->names[0]);
}

std::vector<std::vector<Bytes>> TcpBootstrap::gather_rows(uint64_t round, size_t count,
                                                          std::vector<Bytes> own,
                                                          Deadline deadline) {
  // Every rank's row as its bytes arrive (no rank waits for another's frame to complete), so
  // a timeout can name who is missing.
  const size_t n = static_cast<size_t>(cfg_.size);
  std::vector<std::vector<Bytes>> rows(n);
  rows[0] = std::move(own);
  std::vector<FrameReader> readers(n);
  std::vector<int> pending;
  for (int r = 1; r < cfg_.size; ++r) pending.push_back(r);
  std::vector<pollfd> fds;
  while (!pending.empty()) {
    fds.clear();
    for (int r : pending) fds.push_back({impl_->peers[r].fd(), POLLIN, 0});
    int rc = ::poll(fds.data(), fds.size(), deadline.remaining_ms());
    if (rc < 0 && errno != EINTR) throw_errno("bootstrap: poll");
    if (rc == 0) {
      const std::string what = "bootstrap: collective " + std::to_string(round) +
                               " timed out after " + seconds_text(cfg_.op_timeout) +
                               " waiting for rank" + (pending.size() > 1 ? "s " : " ") +
                               list_ranks(pending);
      throw StallError(what, pending);
    }
    std::vector<int> still;
    for (size_t i = 0; i < fds.size(); ++i) {
      int r = pending[i];
      std::optional<Frame> got;
      if (fds[i].revents) {
        try {
          got = readers[r].read_some(impl_->peers[r], impl_->names[r]);
        } catch (const Error& e) {
          abort_job(r, e.what());
        }
      }
      if (!got) {
        still.push_back(r);
        continue;
      }
      ++impl_->traffic.frames_received;
      impl_->traffic.bytes_received += kFrameHeaderSize + got->payload.size();
      if (got->type == kFailed) throw_report(r, *got);
      if (got->type != kCollective)
        throw ProtocolError(impl_->names[r] + ": unexpected frame type " +
                            std::to_string(got->type));
      rows[r] = decode_blobs(got->payload, round, count, impl_->names[r]);
    }
    pending = std::move(still);
  }
  return rows;
}

void TcpBootstrap::fan_out(const std::vector<const Bytes*>& frames, Deadline deadline) {
  // Every rank's frame at once, as each socket takes more: a rank that is slow to read (not
  // scheduled yet) holds up no other.
  std::vector<size_t> sent(frames.size(), 0);
  std::vector<int> pending;
  for (int r = 1; r < cfg_.size; ++r) pending.push_back(r);
  std::vector<pollfd> fds;
  while (!pending.empty()) {
    fds.clear();
    for (int r : pending) fds.push_back({impl_->peers[r].fd(), POLLOUT, 0});
    int rc = ::poll(fds.data(), fds.size(), deadline.remaining_ms());
    if (rc < 0 && errno != EINTR) throw_errno("bootstrap: poll");
    if (rc == 0) {
      throw TimeoutError("bootstrap: sending a collective's results timed out after " +
                         seconds_text(cfg_.op_timeout) + ": rank" +
                         (pending.size() > 1 ? "s " : " ") + list_ranks(pending) +
                         " took not all of it");
    }
    std::vector<int> still;
    for (size_t i = 0; i < fds.size(); ++i) {
      const int r = pending[i];
      const Bytes& f = *frames[static_cast<size_t>(r)];
      size_t& off = sent[static_cast<size_t>(r)];
      if (fds[i].revents) {
        const ssize_t k =
            ::send(fds[i].fd, f.data() + off, f.size() - off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (k > 0) off += static_cast<size_t>(k);
        if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
          abort_job(r, "sending: " + errno_text(errno));
      }
      if (off < f.size())
        still.push_back(r);
      else
        ++impl_->traffic.frames_sent;
    }
    pending = std::move(still);
  }
}

void TcpBootstrap::barrier() {
  alltoall(std::vector<Bytes>(cfg_.size));
}

void TcpBootstrap::abort_job(int dead, const std::string& reason) {
  const std::string text = failure_text(impl_->names[dead], "is gone", impl_->phase, reason);
  broadcast_verdict(text);
  throw Error(text);
}

void TcpBootstrap::throw_verdict(const Frame& abort) {
  impl_->verdict = WireReader(abort.payload, impl_->names[0]).str("reason");
  throw Error(impl_->verdict);
}

void TcpBootstrap::throw_report(int rank, const Frame& failed) {
  FailureReport rep = read_report(rank, failed, impl_->names[rank], cfg_.size);
  const std::string text = failure_text(impl_->names[rank], "failed", rep.phase, rep.why);
  if (impl_->reports.empty()) impl_->first_report_ns = now_ns();
  impl_->reports.push_back(std::move(rep));
  throw Error(text);
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
      throw Error(failure_text(impl_->names[0] + " (rank 0)", "is gone", impl_->phase, *why));
    }
    // Peek only: data here may be the start of the peer's next collective, not ours to take.
    uint8_t hdr[kFrameHeaderSize];
    const ssize_t n = ::recv(s.fd(), hdr, sizeof hdr, MSG_PEEK | MSG_DONTWAIT);
    if (n != static_cast<ssize_t>(kFrameHeaderSize)) continue;
    const FrameHeader h = decode_frame_header(
        std::span<const uint8_t, kFrameHeaderSize>(hdr, kFrameHeaderSize), impl_->names[r]);
    if (h.type != (root ? kFailed : kAbort)) continue;
    Frame f = recv_frame(s, Deadline::after(std::chrono::seconds(1)), impl_->names[r], kReportMax);
    if (root) throw_report(r, f);
    throw_verdict(f);
  }
}

}  // namespace dlcnet
