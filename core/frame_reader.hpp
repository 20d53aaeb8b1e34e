// One frame read from a socket in pieces, as its bytes arrive, never blocking: rank 0 of the
// TCP bootstrap serves every connection from one poll() loop, so a slow or stalled peer holds
// up no other (recv_frame() would wait for the whole frame of the first one it picked).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/socket.hpp"
#include "core/wire.hpp"

namespace dlcnet {

class FrameReader {
 public:
  // Frames whose header claims more than `max_length` payload bytes are refused (a hello is
  // 16 bytes: rank 0 reads hellos with a small bound, collectives with kWireMaxPayload).
  explicit FrameReader(uint32_t max_length = kWireMaxPayload) : max_length_(max_length) {}
  // Takes what the socket holds now (call it when poll() says POLLIN) and returns the frame
  // once it is complete; the reader then starts over. Throws Error("<peer> closed the
  // connection") at end of stream and ProtocolError for a header that is not ours or claims
  // more than the bound. The payload's memory grows with the bytes that arrived (by doubling,
  // from kFrameGrowStep), never up front to what the header claims: a peer that claims 64 MiB
  // and sends 10 bytes costs 64 KiB.
  std::optional<Frame> read_some(const Socket& s, const std::string& peer);
  // Whether part of a frame has arrived.
  bool started() const noexcept { return got_ > 0; }
  // Bytes held for the frame in progress (tests: allocation follows arrival).
  size_t allocated() const noexcept { return frame_.payload.capacity(); }

 private:
  std::array<uint8_t, kFrameHeaderSize> header_{};
  Frame frame_;
  uint32_t max_length_;
  size_t length_ = 0;  // payload bytes the header announced
  size_t got_ = 0;     // bytes of the current frame so far, header included
};

// The first allocation for a frame's payload; it doubles as bytes arrive, up to the length.
inline constexpr size_t kFrameGrowStep = 64 << 10;
// The next size of a payload buffer holding `have` bytes of `length`.
inline size_t frame_grow(size_t have, size_t length) {
  const size_t next = have < kFrameGrowStep ? kFrameGrowStep : 2 * have;
  return next < length ? next : length;
}

}  // namespace dlcnet
