// One frame read from a socket in pieces, as its bytes arrive, never blocking: rank 0 of the
// TCP bootstrap serves every connection from one poll() loop, so a slow or stalled peer holds
// up no other (recv_frame() would wait for the whole frame of the first one it picked).
#pragma once

#include <array>
#include <optional>
#include <string>

#include "core/socket.hpp"
#include "core/wire.hpp"

namespace dlcnet {

class FrameReader {
 public:
  // Takes what the socket holds now (call it when poll() says POLLIN) and returns the frame
  // once it is complete; the reader then starts over. Throws Error("<peer> closed the
  // connection") at end of stream and ProtocolError for a header that is not ours.
  std::optional<Frame> read_some(const Socket& s, const std::string& peer);
  // Whether part of a frame has arrived.
  bool started() const noexcept { return got_ > 0; }

 private:
  std::array<uint8_t, kFrameHeaderSize> header_{};
  Frame frame_;
  size_t got_ = 0;  // bytes of the current frame so far, header included
};

}  // namespace dlcnet
