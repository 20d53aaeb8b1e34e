// What goes on the wire between ranks: versioned, length-checked frames whose fields are
// written one by one in network byte order. Never a raw struct.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/bytes.hpp"

namespace dlcnet {

inline constexpr uint32_t kWireMagic = 0x444C434E;  // "DLCN"
inline constexpr uint16_t kWireVersion = 1;
inline constexpr uint32_t kWireMaxPayload = 64u << 20;
inline constexpr size_t kFrameHeaderSize = 12;  // magic u32, version u16, type u16, length u32

// Appends big-endian fields to a byte buffer.
class WireWriter {
 public:
  WireWriter& u8(uint8_t v);
  WireWriter& u16(uint16_t v);
  WireWriter& u32(uint32_t v);
  WireWriter& u64(uint64_t v);
  WireWriter& i64(int64_t v) { return u64(static_cast<uint64_t>(v)); }
  WireWriter& raw(std::span<const uint8_t> data);
  WireWriter& blob(std::span<const uint8_t> data);  // u32 length, then the bytes
  WireWriter& str(std::string_view s);              // u32 length, then the characters
  const Bytes& bytes() const& { return buf_; }
  Bytes take() { return std::move(buf_); }

 private:
  Bytes buf_;
};

// Reads big-endian fields; every read is bounds-checked and a short buffer throws
// ProtocolError naming `what` (e.g. "verbs endpoint from rank 3"), the field and the offset.
class WireReader {
 public:
  WireReader(std::span<const uint8_t> data, std::string what)
      : data_(data), what_(std::move(what)) {}
  uint8_t u8(const char* field);
  uint16_t u16(const char* field);
  uint32_t u32(const char* field);
  uint64_t u64(const char* field);
  int64_t i64(const char* field) { return static_cast<int64_t>(u64(field)); }
  std::span<const uint8_t> raw(size_t n, const char* field);
  Bytes blob(const char* field, uint32_t max_length = kWireMaxPayload);
  std::string str(const char* field, uint32_t max_length = 4096);
  // Throws unless every byte was consumed (trailing garbage is a protocol error too).
  void expect_end() const;
  size_t remaining() const noexcept { return data_.size() - pos_; }

 private:
  void need(size_t n, const char* field) const;
  std::span<const uint8_t> data_;
  std::string what_;
  size_t pos_ = 0;
};

struct FrameHeader {
  uint16_t version = 0;
  uint16_t type = 0;
  uint32_t length = 0;
};

// Frame = header + payload. `version` is a parameter only so tests can speak another version.
Bytes encode_frame(uint16_t type, std::span<const uint8_t> payload,
                   uint16_t version = kWireVersion);
// Checks magic, version and length (at most `max_length`, itself at most kWireMaxPayload: a
// hello or a welcome is far smaller than a collective). `peer` names the other side in the
// error messages.
FrameHeader decode_frame_header(std::span<const uint8_t, kFrameHeaderSize> header,
                                const std::string& peer, uint32_t max_length = kWireMaxPayload);

// A self-describing payload tag ("verbs-rc", "ucx") plus version at the start of a blob, so a
// rank running another transport or build is named instead of failing later in the NIC.
void write_blob_tag(WireWriter& w, std::string_view tag, uint16_t version);
void check_blob_tag(WireReader& r, std::string_view tag, uint16_t version);

}  // namespace dlcnet
