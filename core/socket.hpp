// TCP for the out-of-band channel: blocking sockets driven through poll() with deadlines, so
// no call waits longer than its caller allows.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/bytes.hpp"
#include "core/deadline.hpp"
#include "core/wire.hpp"

namespace dlcnet {

class Socket {
 public:
  Socket() = default;
  explicit Socket(int fd) : fd_(fd) {}
  Socket(Socket&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Socket& operator=(Socket&& o) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket();
  int fd() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// Listens on bind_host:port (port 0 picks a free one). Throws Error naming the address.
Socket tcp_listen(const std::string& bind_host, uint16_t port);
uint16_t local_port(const Socket& s);
// Accepts one connection; nullopt when the deadline passes first. `peer_name` gets "ip:port".
std::optional<Socket> tcp_accept(const Socket& listener, Deadline deadline, std::string* peer_name);
// Accepts a connection waiting in the backlog; nullopt when none is (the listener must be
// non-blocking, or have one waiting).
std::optional<Socket> tcp_accept_now(const Socket& listener, std::string* peer_name);
// Connects, retrying refused/unreachable attempts every 100 ms until the deadline, then throws
// TimeoutError "<what>: could not connect to host:port within N s (last error: ...)".
Socket tcp_connect(const std::string& host, uint16_t port, Deadline deadline,
                   const std::string& what);

void send_all(const Socket& s, std::span<const uint8_t> data, Deadline deadline,
              const std::string& peer);
// Throws TimeoutError on the deadline and Error("<peer> closed the connection") on EOF.
void recv_exact(const Socket& s, std::span<uint8_t> data, Deadline deadline,
                const std::string& peer);

struct Frame {
  uint16_t type = 0;
  Bytes payload;
};
void send_frame(const Socket& s, uint16_t type, std::span<const uint8_t> payload, Deadline deadline,
                const std::string& peer, uint16_t version = kWireVersion);
// A frame whose header claims more than `max_length` bytes is a ProtocolError naming `peer`;
// the payload's memory grows as its bytes arrive, not by what the header claims.
Frame recv_frame(const Socket& s, Deadline deadline, const std::string& peer,
                 uint32_t max_length = kWireMaxPayload);

}  // namespace dlcnet
