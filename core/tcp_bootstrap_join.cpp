// Rank 0's side of TcpBootstrap::join(): every connection served from one poll() loop. A
// connection is accepted as soon as it arrives and its hello read as its bytes come, so ranks
// join in whatever order they are ready and one that is slow to say hello (or a stray process
// that says nothing) delays no other. What a connection that is not a rank of this job can do
// is bounded: its hello may claim at most kHelloMax bytes (nothing is allocated for more), it
// has hello_timeout to finish it however slowly it trickles, anything but a valid hello of
// this job (garbage, another wire version, another token or world size, a rank out of range
// or already joined) turns it away at once, and at most kSpareArrivals of them wait at a time
// beyond the ranks still missing (the oldest is turned away for a newcomer).
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <list>

#include "core/error.hpp"
#include "core/frame_reader.hpp"
#include "core/log_line.hpp"
#include "core/stop_budget.hpp"
#include "core/tcp_bootstrap_impl.hpp"

namespace dlcnet {
namespace {

struct Arrival {
  Socket s;
  std::string from;
  FrameReader reader{kHelloMax};
  Deadline hello_by;
};

// Connections turned away are noted on stderr, the first kNotedTurnAways one by one (a flood
// of them is counted, not printed).
constexpr int kNotedTurnAways = 16;

void set_nonblocking(const Socket& s) {
  const int flags = ::fcntl(s.fd(), F_GETFL);
  if (flags < 0 || ::fcntl(s.fd(), F_SETFL, flags | O_NONBLOCK) != 0)
    throw_errno("bootstrap: making the listening socket non-blocking");
}

// Sends `reason` and closes (the caller drops the socket). Never waits: a peer that does not
// read gets what fits into its socket's buffer, and a reject is small.
void turn_away(const Socket& s, const std::string& from, const std::string& reason,
               int& turned_away) {
  if (turned_away++ < kNotedTurnAways) log_line("bootstrap: turned away " + from + ": " + reason);
  try {
    WireWriter w;
    w.str(reason.substr(0, kReasonMax - 4));
    const Bytes f = encode_frame(kReject, w.bytes());
    (void)!::send(s.fd(), f.data(), f.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  } catch (const Error&) {
    // Best effort: the peer may not speak our protocol at all.
  }
}

std::string list_absent(const std::vector<Socket>& peers) {
  std::string s;
  int shown = 0, absent = 0;
  for (size_t r = 1; r < peers.size(); ++r) {
    if (peers[r].valid()) continue;
    if (shown < 16) s += (shown++ ? ", " : "") + std::to_string(r);
    ++absent;
  }
  if (absent > shown) s += ", ... (" + std::to_string(absent) + " in all)";
  return (absent > 1 ? "ranks " : "rank ") + s;
}

}  // namespace

int decode_hello(const Frame& f, const std::string& from, uint64_t job_token, int size,
                 const std::function<bool(int)>& joined, std::string& reason) {
  int rank = -1;
  try {
    if (f.type != kHello)
      throw ProtocolError(from + ": expected a hello, got frame type " + std::to_string(f.type));
    WireReader r(f.payload, "hello from " + from);
    rank = static_cast<int>(r.u32("rank"));
    const int claimed_size = static_cast<int>(r.u32("size"));
    const uint64_t token = r.u64("job token");
    r.expect_end();
    if (token != job_token)
      reason = "job token differs (another job?)";
    else if (claimed_size != size)
      reason =
          "world size " + std::to_string(claimed_size) + " differs from " + std::to_string(size);
    else if (rank <= 0 || rank >= size)
      reason = "rank " + std::to_string(rank) + " is out of range";
    else if (joined(rank))
      reason = "rank " + std::to_string(rank) + " joined already";
  } catch (const Error& e) {
    reason = e.what();
  }
  return reason.empty() ? rank : -1;
}

void TcpBootstrap::accept_ranks(Deadline deadline) {
  Impl& im = *impl_;
  im.peers.resize(static_cast<size_t>(cfg_.size));
  im.names.resize(static_cast<size_t>(cfg_.size));
  set_nonblocking(im.listener);
  std::list<Arrival> arrivals;  // oldest first
  int turned_away = 0;
  // The hello of `a`: the rank it names, or -1 after turning `a` away.
  auto check_hello = [&](Arrival& a, const Frame& f) -> int {
    std::string reason;
    const int rank = decode_hello(
        f, a.from, cfg_.job_token, cfg_.size,
        [&](int r) { return im.peers[static_cast<size_t>(r)].valid(); }, reason);
    if (reason.empty()) return rank;
    turn_away(a.s, a.from, reason, turned_away);
    return -1;
  };
  int missing = cfg_.size - 1;
  std::vector<pollfd> fds;
  while (missing > 0) {
    Deadline wake = deadline;
    fds.assign(1, pollfd{im.listener.fd(), POLLIN, 0});
    for (const Arrival& a : arrivals) {
      fds.push_back({a.s.fd(), POLLIN, 0});
      wake = wake.earlier(a.hello_by);
    }
    const int rc = ::poll(fds.data(), fds.size(), wake.remaining_ms());
    if (rc < 0 && errno != EINTR) throw_errno("bootstrap: poll");
    if (deadline.expired()) {
      throw TimeoutError("bootstrap: waited " + seconds_text(cfg_.join_timeout) + " on port " +
                         std::to_string(port()) + " for " + list_absent(im.peers) +
                         " to connect; none came");
    }
    // Hellos first (the arrivals polled, in order), then new connections.
    size_t i = 1;
    for (auto it = arrivals.begin(); it != arrivals.end(); ++i) {
      Arrival& a = *it;
      bool done = false;
      if (fds[i].revents != 0) {
        try {
          if (std::optional<Frame> f = a.reader.read_some(a.s, a.from)) {
            ++im.traffic.frames_received;
            im.traffic.bytes_received += kFrameHeaderSize + f->payload.size();
            done = true;
            const int rank = check_hello(a, *f);
            if (rank > 0) {
              send_frame(a.s, kWelcome, {}, deadline, a.from);
              ++im.traffic.frames_sent;
              im.peers[static_cast<size_t>(rank)] = std::move(a.s);
              im.names[static_cast<size_t>(rank)] =
                  "rank " + std::to_string(rank) + " (" + a.from + ")";
              --missing;
            }
          }
        } catch (const Error& e) {
          turn_away(a.s, a.from, e.what(), turned_away);
          done = true;
        }
      }
      if (!done && a.hello_by.expired()) {
        turn_away(a.s, a.from,
                  "no hello within " + std::to_string(cfg_.hello_timeout.count()) + " ms",
                  turned_away);
        done = true;
      }
      it = done ? arrivals.erase(it) : std::next(it);
    }
    if ((fds[0].revents & POLLIN) == 0) continue;
    for (;;) {  // every connection waiting in the backlog
      std::string from;
      std::optional<Socket> s = tcp_accept_now(im.listener, &from);
      if (!s) break;
      if (arrivals.size() >= static_cast<size_t>(missing) + kSpareArrivals) {
        Arrival& oldest = arrivals.front();
        turn_away(oldest.s, oldest.from,
                  "more than " + std::to_string(missing + kSpareArrivals) + " " +
                      std::string(kMakeRoomReason) + ": the oldest is turned away",
                  turned_away);
        arrivals.pop_front();
      }
      arrivals.push_back(Arrival{std::move(*s), from, FrameReader(kHelloMax),
                                 deadline.earlier(Deadline::after(cfg_.hello_timeout))});
    }
  }
  if (turned_away > kNotedTurnAways) {
    log_line("bootstrap: turned away " + std::to_string(turned_away - kNotedTurnAways) +
             " more connections during the join");
  }
  im.listener = Socket();
}

}  // namespace dlcnet
