// How the ranks of a failing job agree on its first cause (Bootstrap::settle_failure).
//
// A killed rank makes its peers fail one after another: the first survivor to notice exits,
// and a second survivor may then notice the first one's exit before the killed rank, and name
// the wrong rank. So a failing rank does not simply exit: it reports its error to rank 0
// (kFailed) and waits for rank 0's verdict (kAbort). Rank 0 gathers reports for a moment and
// picks, in this order: a rank whose connection closed without a report (it died), a rank that
// sent no report where the failing ranks' waits lead (frozen: core/tcp_bootstrap_stopped.cpp),
// the first report that came before rank 0 itself failed, rank 0's own error.
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stop_budget.hpp"
#include "core/tcp_bootstrap_impl.hpp"
#include "core/wire.hpp"

// Rank 0 waits cfg_.report_window for the other ranks' reports, less once one rank has died
// (twice when a rank seems stopped); the others wait cfg_.verdict_wait for its verdict, after
// which rank 0 is named as stopped. Both fit in the settle reserve of --timeout
// (core/stop_budget.hpp).
namespace dlcnet {

std::string failure_text(const std::string& who, const char* what, const std::string& phase,
                         const std::string& why) {
  return who + " " + what + (phase.empty() ? "" : " during " + phase) + ": " + why;
}

FailureReport read_report(int rank, const Frame& failed, const std::string& peer, int size) {
  WireReader r(failed.payload, peer);
  FailureReport rep{rank, {}, r.str("reason"), {}};
  rep.phase = r.str("phase");
  const uint32_t n = r.u32("ranks waited for");
  if (n > kWaitedMax)
    throw ProtocolError(peer + ": a failure report naming " + std::to_string(n) + " ranks");
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t w = r.u32("rank waited for");
    if (w >= static_cast<uint32_t>(size))
      throw ProtocolError(peer + ": a failure report naming rank " + std::to_string(w));
    rep.waited_on.push_back(static_cast<int>(w));
  }
  r.expect_end();
  return rep;
}

std::optional<std::string> connection_lost(const Socket& s) {
  uint8_t byte = 0;
  const ssize_t n = ::recv(s.fd(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n == 0) return std::string("connection closed (process exited or killed)");
  if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    return "connection lost: " + errno_text(errno);
  return std::nullopt;
}

void TcpBootstrap::broadcast_verdict(const std::string& cause) noexcept {
  try {
    impl_->verdict = cause;
    WireWriter w;
    w.str(cause);
    for (int r = 1; r < cfg_.size; ++r) {
      if (!impl_->peers[r].valid()) continue;
      try {
        send_frame(impl_->peers[r], kAbort, w.bytes(), Deadline::after(cfg_.report_window),
                   impl_->names[r]);
      } catch (const Error&) {
        // That rank may be gone too: its own connection tells rank 0 so.
      }
    }
  } catch (...) {  // out of memory: the others fall back on their own errors
  }
}

std::string TcpBootstrap::root_verdict(const std::string& mine, const std::vector<int>& waited_on) {
  Impl& im = *impl_;
  const size_t earlier = im.reports.size();  // reports taken before this rank failed
  std::vector<char> settled(static_cast<size_t>(cfg_.size), 0);
  for (const auto& rep : im.reports) settled[static_cast<size_t>(rep.rank)] = 1;
  int dead = -1;
  std::string dead_why;
  // A rank that stopped without leaving: the waits of the first failure lead to it. One that
  // seems so gets a second window to report: it may be alive, waiting for another one, and
  // about to run out of time itself.
  const int from = earlier > 0 ? im.reports[0].rank : 0;
  // The verdict leaves while the first rank that reported still waits for it (past its
  // verdict_wait it would name rank 0 as stopped): by four fifths of that wait.
  const auto verdict_due = [&] {
    if (im.first_report_ns == 0) return Deadline::after(cfg_.report_window);
    const int64_t due =
        im.first_report_ns + std::chrono::nanoseconds(cfg_.verdict_wait).count() * 4 / 5;
    return Deadline::after(
        std::chrono::milliseconds(std::max<int64_t>(0, (due - now_ns()) / 1'000'000)));
  };
  Stopped stopped;
  for (int window = 0; window < 2 && dead < 0; ++window) {
    const Deadline window_end = Deadline::after(cfg_.report_window);
    for (;;) {
      const Deadline deadline = window_end.earlier(verdict_due());
      if (dead >= 0 || deadline.expired()) break;
      std::vector<pollfd> fds;
      std::vector<int> who;
      for (int r = 1; r < cfg_.size; ++r) {
        if (settled[static_cast<size_t>(r)] || !im.peers[r].valid()) continue;
        fds.push_back({im.peers[r].fd(), POLLIN, 0});
        who.push_back(r);
      }
      if (fds.empty()) break;
      const int rc = ::poll(fds.data(), fds.size(), deadline.remaining_ms());
      if (rc < 0 && errno == EINTR) continue;
      if (rc <= 0) break;
      for (size_t i = 0; i < fds.size(); ++i) {
        if (!fds[i].revents) continue;
        const int r = who[i];
        std::optional<std::string> lost = connection_lost(im.peers[r]);
        if (!lost) {
          try {
            // A frame under way is read whole even at the window's end.
            const Frame f =
                recv_frame(im.peers[r], Deadline::after(cfg_.report_window), im.names[r]);
            if (f.type == kFailed) {
              if (im.reports.empty()) im.first_report_ns = now_ns();
              im.reports.push_back(read_report(r, f, im.names[r], cfg_.size));
              settled[static_cast<size_t>(r)] = 1;
            }  // anything else is a collective this rank will not answer any more
          } catch (const Error& e) {
            lost = e.what();
          }
        }
        if (lost) {
          settled[static_cast<size_t>(r)] = 1;
          if (dead < 0) {
            dead = r;
            dead_why = *lost;
          }
        }
      }
    }
    stopped = stopped_rank(from, im.reports, waited_on, cfg_.size);
    if (stopped.rank < 0) break;
  }
  // Rank 0's own error is named as rank 0's, so that a rank it mentions (e.g. "the endpoint
  // to rank 9 failed") does not read the verdict as naming itself the cause.
  std::string cause = failure_text("rank 0", "failed", im.phase, mine);
  if (dead >= 0) {
    cause = failure_text(im.names[dead], "is gone", im.phase, dead_why);
  } else if (stopped.rank > 0) {
    std::string seen = mine;
    for (const auto& rep : im.reports)
      if (rep.rank == stopped.waiter) seen = rep.why;
    cause = failure_text(im.names[stopped.rank], "stopped responding", im.phase,
                         "connected but silent (frozen or stuck?); rank " +
                             std::to_string(stopped.waiter) + ": " + seen);
  } else if (earlier > 0) {
    const FailureReport& first = im.reports[0];
    cause = failure_text(im.names[first.rank], "failed", first.phase, first.why);
  }
  broadcast_verdict(cause);
  return cause;
}

std::string TcpBootstrap::await_verdict(const std::string& mine,
                                        const std::vector<int>& waited_on) {
  const Socket& s = impl_->peers[0];
  const std::string& coord = impl_->names[0];
  const Deadline deadline = Deadline::after(cfg_.verdict_wait);
  try {
    WireWriter w;
    w.str(mine).str(impl_->phase);
    const size_t n = std::min<size_t>(waited_on.size(), kWaitedMax);
    w.u32(static_cast<uint32_t>(n));
    for (size_t i = 0; i < n; ++i) w.u32(static_cast<uint32_t>(waited_on[i]));
    send_frame(s, kFailed, w.bytes(), deadline, coord);
    for (;;) {
      const Frame f = recv_frame(s, deadline, coord);
      if (f.type == kAbort) return WireReader(f.payload, coord).str("reason");
      // anything else answers a collective this rank has left
    }
  } catch (const TimeoutError&) {
    // Rank 0's connection is open but no verdict came: rank 0 stopped (frozen, or stuck where
    // it looks at no peer), and is the cause.
    if (!connection_lost(s)) {
      return failure_text(coord + " (rank 0)", "stopped responding", impl_->phase,
                          "connected but no answer to this rank's failure report within " +
                              seconds_text(cfg_.verdict_wait) + " (frozen or stuck?)");
    }
    return failure_text(coord + " (rank 0)", "is gone", impl_->phase, *connection_lost(s));
  } catch (const Error&) {
    // Rank 0's connection closed without a verdict: rank 0 died, and is the cause. Silent:
    // this rank's own error stands.
    if (std::optional<std::string> why = connection_lost(s)) {
      return failure_text(coord + " (rank 0)", "is gone", impl_->phase, *why);
    }
  }
  return mine;
}

std::string TcpBootstrap::settle_failure(const std::string& mine,
                                         const std::vector<int>& waited_on) noexcept {
  try {
    if (impl_->joined && cfg_.size > 1 && impl_->verdict.empty()) {
      impl_->verdict =
          cfg_.rank == 0 ? root_verdict(mine, waited_on) : await_verdict(mine, waited_on);
    }
    const std::string& cause = impl_->verdict;
    if (cause.empty() || mine.find(cause) != std::string::npos) return mine;
    if (cause.find(mine) != std::string::npos) return cause;  // this rank's report, named
    return cause + "; after it this rank: " + mine;
  } catch (...) {
    return mine;
  }
}

}  // namespace dlcnet
