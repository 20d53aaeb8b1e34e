// The framing of a Chakra ET file: a stream of length-delimited messages (a base-128 varint
// length, then that many bytes). Nothing in the stream is trusted: a length past the end of
// the buffer, a varint longer than ten bytes or one cut by the end of the file is an error
// that names the byte offset; no length drives an allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dlcnet::trace::chakra {

class DelimitedStream {
 public:
  explicit DelimitedStream(std::string_view bytes) noexcept : bytes_(bytes) {}

  enum class Next { kMessage, kEnd, kError };
  // The next message's bytes in `msg` (a view into the buffer). On kError, `error` says what
  // is wrong and where; the stream stays at the bad frame.
  Next next(std::string_view& msg, std::string& error);
  // Where the last frame returned (or refused) starts: its length prefix.
  size_t frame_offset() const noexcept { return frame_; }

 private:
  std::string_view bytes_;
  size_t at_ = 0;
  size_t frame_ = 0;
};

// Largest message accepted (protobuf's own parser takes an int length).
inline constexpr uint64_t kMaxMessageBytes = 0x7fffffff;

}  // namespace dlcnet::trace::chakra
