#include "core/socket.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "core/error.hpp"
#include "core/frame_reader.hpp"

namespace dlcnet {
namespace {

std::string addr_text(const sockaddr_storage& ss) {
  char host[INET6_ADDRSTRLEN] = "?";
  uint16_t port = 0;
  if (ss.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&ss);
    inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
    port = ntohs(a->sin_port);
  } else if (ss.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&ss);
    inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
    port = ntohs(a->sin6_port);
  }
  return std::string(host) + ":" + std::to_string(port);
}

void set_nodelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// Waits for `events` on fd; false on deadline.
bool wait_for(int fd, short events, Deadline deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    int rc = ::poll(&p, 1, deadline.remaining_ms());
    if (rc > 0) return true;
    if (rc == 0) return false;
    if (errno != EINTR) throw_errno("poll");
  }
}

}  // namespace

Socket& Socket::operator=(Socket&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

Socket::~Socket() {
  if (fd_ >= 0) ::close(fd_);
}

Socket tcp_listen(const std::string& bind_host, uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* res = nullptr;
  const std::string where = bind_host + ":" + std::to_string(port);
  int rc = getaddrinfo(bind_host.empty() ? nullptr : bind_host.c_str(),
                       std::to_string(port).c_str(), &hints, &res);
  if (rc != 0) throw Error("listen on " + where + ": " + gai_strerror(rc));
  Socket s(::socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!s.valid()) {
    freeaddrinfo(res);
    throw_errno("socket() for " + where);
  }
  int one = 1;
  setsockopt(s.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(s.fd(), res->ai_addr, res->ai_addrlen) != 0) {
    int err = errno;
    freeaddrinfo(res);
    throw Error("bind " + where + ": " + errno_text(err) +
                (err == EADDRINUSE ? " (another dlc-bench/dlc-replay on this port? use -p)" : ""));
  }
  freeaddrinfo(res);
  // A backlog for every rank of a large job joining at once (the kernel caps it at somaxconn).
  if (::listen(s.fd(), 4096) != 0) throw_errno("listen " + where);
  return s;
}

uint16_t local_port(const Socket& s) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (getsockname(s.fd(), reinterpret_cast<sockaddr*>(&ss), &len) != 0) throw_errno("getsockname");
  if (ss.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  return ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port);
}

std::optional<Socket> tcp_accept(const Socket& listener, Deadline deadline,
                                 std::string* peer_name) {
  if (!wait_for(listener.fd(), POLLIN, deadline)) return std::nullopt;
  return tcp_accept_now(listener, peer_name);
}

std::optional<Socket> tcp_accept_now(const Socket& listener, std::string* peer_name) {
  for (;;) {
    sockaddr_storage ss{};
    socklen_t len = sizeof ss;
    Socket s(::accept4(listener.fd(), reinterpret_cast<sockaddr*>(&ss), &len, SOCK_CLOEXEC));
    if (!s.valid()) {
      // A connection reset while it waited in the backlog is gone: try the next.
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return std::nullopt;
      throw_errno("accept");
    }
    set_nodelay(s.fd());
    if (peer_name) *peer_name = addr_text(ss);
    return s;
  }
}

Socket tcp_connect(const std::string& host, uint16_t port, Deadline deadline,
                   const std::string& what) {
  const std::string where = host + ":" + std::to_string(port);
  std::string last_error = "no attempt made";
  const auto start = now_ns();
  do {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
    if (rc != 0) {
      last_error = std::string("cannot resolve host: ") + gai_strerror(rc);
      if (rc != EAI_AGAIN) throw Error(what + ": " + where + ": " + last_error);
    } else {
      for (addrinfo* ai = res; ai; ai = ai->ai_next) {
        Socket s(::socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
        if (!s.valid()) continue;
        int c = ::connect(s.fd(), ai->ai_addr, ai->ai_addrlen);
        if (c != 0 && errno == EINPROGRESS) {
          if (wait_for(s.fd(), POLLOUT, deadline)) {
            int err = 0;
            socklen_t len = sizeof err;
            getsockopt(s.fd(), SOL_SOCKET, SO_ERROR, &err, &len);
            c = err == 0 ? 0 : -1;
            errno = err;
          } else {
            errno = ETIMEDOUT;
          }
        }
        if (c == 0) {
          freeaddrinfo(res);
          // The socket stays non-blocking: every later wait goes through poll().
          set_nodelay(s.fd());
          return s;
        }
        last_error = errno_text(errno);
      }
      freeaddrinfo(res);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  } while (!deadline.expired());
  throw TimeoutError(what + ": could not connect to " + where + " within " +
                     std::to_string((now_ns() - start) / 1'000'000'000) +
                     " s (last error: " + last_error + ")");
}

void send_all(const Socket& s, std::span<const uint8_t> data, Deadline deadline,
              const std::string& peer) {
  size_t off = 0;
  while (off < data.size()) {
    if (!wait_for(s.fd(), POLLOUT, deadline)) {
      throw TimeoutError("sending to " + peer + ": timed out with " +
                         std::to_string(data.size() - off) + " bytes unsent");
    }
    ssize_t n = ::send(s.fd(), data.data() + off, data.size() - off, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw Error("sending to " + peer + ": " + errno_text(errno));
    }
    off += static_cast<size_t>(n);
  }
}

void recv_exact(const Socket& s, std::span<uint8_t> data, Deadline deadline,
                const std::string& peer) {
  size_t off = 0;
  while (off < data.size()) {
    if (!wait_for(s.fd(), POLLIN, deadline)) {
      throw TimeoutError("waiting for " + peer + ": no answer within the timeout");
    }
    ssize_t n = ::recv(s.fd(), data.data() + off, data.size() - off, MSG_DONTWAIT);
    if (n == 0) throw Error(peer + " closed the connection");
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw Error("receiving from " + peer + ": " + errno_text(errno));
    }
    off += static_cast<size_t>(n);
  }
}

void send_frame(const Socket& s, uint16_t type, std::span<const uint8_t> payload, Deadline deadline,
                const std::string& peer, uint16_t version) {
  Bytes f = encode_frame(type, payload, version);
  send_all(s, f, deadline, peer);
}

Frame recv_frame(const Socket& s, Deadline deadline, const std::string& peer, uint32_t max_length) {
  std::array<uint8_t, kFrameHeaderSize> hdr;
  recv_exact(s, hdr, deadline, peer);
  FrameHeader h = decode_frame_header(hdr, peer, max_length);
  Frame f;
  f.type = h.type;
  // The buffer grows as the bytes arrive: a peer that claims a large frame and sends little of
  // it costs little.
  size_t have = 0;
  while (have < h.length) {
    const size_t next = frame_grow(have, h.length);
    f.payload.resize(next);
    recv_exact(s, std::span<uint8_t>(f.payload).subspan(have, next - have), deadline, peer);
    have = next;
  }
  return f;
}

}  // namespace dlcnet
