#include "core/frame_reader.hpp"

#include <sys/socket.h>

#include <cerrno>

#include "core/error.hpp"

namespace dlcnet {

std::optional<Frame> FrameReader::read_some(const Socket& s, const std::string& peer) {
  for (;;) {
    const bool in_header = got_ < kFrameHeaderSize;
    if (!in_header && got_ - kFrameHeaderSize == frame_.payload.size() &&
        frame_.payload.size() < length_) {
      frame_.payload.resize(frame_grow(frame_.payload.size(), length_));
    }
    uint8_t* to =
        in_header ? header_.data() + got_ : frame_.payload.data() + (got_ - kFrameHeaderSize);
    const size_t want =
        in_header ? kFrameHeaderSize - got_ : frame_.payload.size() - (got_ - kFrameHeaderSize);
    if (want > 0) {
      const ssize_t n = ::recv(s.fd(), to, want, MSG_DONTWAIT);
      if (n == 0) throw Error(peer + " closed the connection");
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return std::nullopt;
        throw Error("receiving from " + peer + ": " + errno_text(errno));
      }
      got_ += static_cast<size_t>(n);
      if (static_cast<size_t>(n) < want) return std::nullopt;
    }
    if (got_ == kFrameHeaderSize && in_header) {
      const FrameHeader h = decode_frame_header(header_, peer, max_length_);
      frame_.type = h.type;
      length_ = h.length;
      frame_.payload.clear();
    }
    if (got_ == kFrameHeaderSize + length_) {
      Frame done = std::move(frame_);
      frame_ = Frame();
      got_ = 0;
      length_ = 0;
      return done;
    }
  }
}

}  // namespace dlcnet
