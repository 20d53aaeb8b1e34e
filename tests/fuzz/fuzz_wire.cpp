// libFuzzer target: bytes a peer sends. The TCP bootstrap's frame reader over a real socket
// pair (magic, version, length checked before the payload is allocated), then each frame's
// payload through the wire reader's field reads, the blob tag check and dlc-bench's test
// description (what a server adopts from its client). Every failure is a ProtocolError or
// Error; a decoded description holds only values the tool itself would accept.
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "core/frame_reader.hpp"
#include "core/socket.hpp"
#include "core/wire.hpp"
#include "patterns/p2p/bench_spec.hpp"

namespace {

void read_fields(const dlcnet::Bytes& payload) {
  try {
    dlcnet::WireReader r(payload, "fuzz");
    while (r.remaining() > 0) {
      switch (r.u8("op") % 6) {
        case 0:
          (void)r.u16("a");
          break;
        case 1:
          (void)r.u32("b");
          break;
        case 2:
          (void)r.u64("c");
          break;
        case 3:
          (void)r.str("d");
          break;
        case 4:
          (void)r.blob("e", 1 << 16);
          break;
        default:
          (void)r.raw(r.u8("n"), "f");
          break;
      }
    }
    r.expect_end();
  } catch (const dlcnet::Error&) {
  }
  try {
    dlcnet::WireReader r(payload, "fuzz");
    dlcnet::check_blob_tag(r, "verbs-rc", 1);
  } catch (const dlcnet::Error&) {
  }
  try {
    const dlcnet::BenchSpec s = dlcnet::BenchSpec::decode(payload, "fuzz");
    if (!std::isfinite(s.duration_s) || s.duration_s < 0 || s.timeout_s < 1 || s.tx_depth < 1) {
      __builtin_trap();  // a peer's values the options would never produce
    }
  } catch (const dlcnet::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 65536) return 0;  // what a socket pair's buffer holds at once
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) __builtin_trap();
  const int sndbuf = 1 << 20;
  ::setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
  size_t at = 0;
  while (at < size) {
    const ssize_t n = ::send(fds[0], data + at, size - at, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n <= 0) break;
    at += static_cast<size_t>(n);
  }
  ::close(fds[0]);
  const dlcnet::Socket s(fds[1]);
  dlcnet::FrameReader reader;
  try {
    for (int frames = 0; frames < 64; ++frames) {
      const std::optional<dlcnet::Frame> f = reader.read_some(s, "fuzz peer");
      if (!f) break;
      read_fields(f->payload);
    }
  } catch (const dlcnet::Error&) {
  }
  return 0;
}
