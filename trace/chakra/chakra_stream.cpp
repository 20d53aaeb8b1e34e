#include "trace/chakra/chakra_stream.hpp"

namespace dlcnet::trace::chakra {

DelimitedStream::Next DelimitedStream::next(std::string_view& msg, std::string& error) {
  frame_ = at_;
  if (at_ == bytes_.size()) return Next::kEnd;
  uint64_t len = 0;
  size_t i = at_;
  for (int shift = 0;; shift += 7) {
    if (shift > 63) {
      error = "byte offset " + std::to_string(frame_) +
              ": message length: a varint longer than "
              "ten bytes (not a Chakra ET stream?)";
      return Next::kError;
    }
    if (i == bytes_.size()) {
      error = "byte offset " + std::to_string(frame_) +
              ": message length: the file ends inside the varint (truncated)";
      return Next::kError;
    }
    const auto b = static_cast<uint8_t>(bytes_[i++]);
    if (shift == 63 && (b & 0x7f) > 1) {
      error = "byte offset " + std::to_string(frame_) +
              ": message length: the varint overflows 64 bits (not a Chakra ET stream?)";
      return Next::kError;
    }
    len |= static_cast<uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) break;
  }
  const size_t left = bytes_.size() - i;
  if (len > kMaxMessageBytes || len > left) {
    error = "byte offset " + std::to_string(frame_) + ": message length " + std::to_string(len) +
            " but only " + std::to_string(left) +
            " bytes follow (truncated or not a Chakra ET "
            "stream)";
    return Next::kError;
  }
  msg = bytes_.substr(i, static_cast<size_t>(len));
  at_ = i + static_cast<size_t>(len);
  return Next::kMessage;
}

}  // namespace dlcnet::trace::chakra
