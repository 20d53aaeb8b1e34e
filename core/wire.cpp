#include "core/wire.hpp"

#include <cstdio>
#include <utility>

#include "core/error.hpp"

namespace dlcnet {

WireWriter& WireWriter::u8(uint8_t v) {
  buf_.push_back(v);
  return *this;
}
WireWriter& WireWriter::u16(uint16_t v) {
  buf_.push_back(static_cast<uint8_t>(v >> 8));
  buf_.push_back(static_cast<uint8_t>(v));
  return *this;
}
WireWriter& WireWriter::u32(uint32_t v) {
  u16(static_cast<uint16_t>(v >> 16));
  return u16(static_cast<uint16_t>(v));
}
WireWriter& WireWriter::u64(uint64_t v) {
  u32(static_cast<uint32_t>(v >> 32));
  return u32(static_cast<uint32_t>(v));
}
WireWriter& WireWriter::raw(std::span<const uint8_t> data) {
  buf_.insert(buf_.end(), data.begin(), data.end());
  return *this;
}
WireWriter& WireWriter::blob(std::span<const uint8_t> data) {
  if (data.size() > kWireMaxPayload)
    throw Error("wire: blob of " + std::to_string(data.size()) + " bytes exceeds the frame limit");
  u32(static_cast<uint32_t>(data.size()));
  return raw(data);
}
WireWriter& WireWriter::str(std::string_view s) {
  return blob({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
}

void WireReader::need(size_t n, const char* field) const {
  if (data_.size() - pos_ < n) {
    throw ProtocolError(what_ + ": truncated message: field '" + field + "' needs " +
                        std::to_string(n) + " bytes at offset " + std::to_string(pos_) + ", only " +
                        std::to_string(data_.size() - pos_) + " left");
  }
}
uint8_t WireReader::u8(const char* field) {
  need(1, field);
  return data_[pos_++];
}
uint16_t WireReader::u16(const char* field) {
  need(2, field);
  auto v = static_cast<uint16_t>((data_[pos_] << 8) | data_[pos_ + 1]);
  pos_ += 2;
  return v;
}
uint32_t WireReader::u32(const char* field) {
  need(4, field);
  uint32_t hi = u16(field);
  return (hi << 16) | u16(field);
}
uint64_t WireReader::u64(const char* field) {
  need(8, field);
  uint64_t hi = u32(field);
  return (hi << 32) | u32(field);
}
std::span<const uint8_t> WireReader::raw(size_t n, const char* field) {
  need(n, field);
  auto s = data_.subspan(pos_, n);
  pos_ += n;
  return s;
}
Bytes WireReader::blob(const char* field, uint32_t max_length) {
  uint32_t n = u32(field);
  if (n > max_length) {
    throw ProtocolError(what_ + ": field '" + field + "' claims " + std::to_string(n) +
                        " bytes, more than the limit of " + std::to_string(max_length));
  }
  auto s = raw(n, field);
  return Bytes(s.begin(), s.end());
}
std::string WireReader::str(const char* field, uint32_t max_length) {
  Bytes b = blob(field, max_length);
  return std::string(b.begin(), b.end());
}
void WireReader::expect_end() const {
  if (pos_ != data_.size()) {
    throw ProtocolError(what_ + ": " + std::to_string(data_.size() - pos_) +
                        " unexpected trailing bytes at offset " + std::to_string(pos_));
  }
}

Bytes encode_frame(uint16_t type, std::span<const uint8_t> payload, uint16_t version) {
  if (payload.size() > kWireMaxPayload)
    throw Error("wire: payload of " + std::to_string(payload.size()) +
                " bytes exceeds the frame limit");
  WireWriter w;
  w.u32(kWireMagic).u16(version).u16(type).u32(static_cast<uint32_t>(payload.size())).raw(payload);
  return w.take();
}

FrameHeader decode_frame_header(std::span<const uint8_t, kFrameHeaderSize> header,
                                const std::string& peer, uint32_t max_length) {
  if (max_length > kWireMaxPayload) max_length = kWireMaxPayload;
  WireReader r(header, peer);
  uint32_t magic = r.u32("magic");
  if (magic != kWireMagic) {
    char first[16];
    std::snprintf(first, sizeof first, "0x%08x", magic);
    throw ProtocolError(peer + ": not a dlcnet peer (first bytes " + first +
                        ", expected \"DLCN\")");
  }
  FrameHeader h;
  h.version = r.u16("version");
  if (h.version != kWireVersion) {
    throw ProtocolError(peer + " speaks dlcnet wire protocol version " + std::to_string(h.version) +
                        ", this build speaks version " + std::to_string(kWireVersion) +
                        ": run the same dlcnet version on every host");
  }
  h.type = r.u16("type");
  h.length = r.u32("length");
  if (h.length > max_length) {
    throw ProtocolError(peer + ": frame of " + std::to_string(h.length) +
                        " bytes exceeds the limit of " + std::to_string(max_length) +
                        (max_length < kWireMaxPayload ? " for frame type " + std::to_string(h.type)
                                                      : std::string()));
  }
  return h;
}

void write_blob_tag(WireWriter& w, std::string_view tag, uint16_t version) {
  w.str(tag).u16(version);
}

void check_blob_tag(WireReader& r, std::string_view tag, uint16_t version) {
  std::string got = r.str("tag", 64);
  uint16_t v = r.u16("tag version");
  if (got != tag) {
    throw ProtocolError("peer uses " + (got.empty() ? std::string("nothing") : got) +
                        ", this rank uses " + std::string(tag) +
                        ": every rank must run the same transport");
  }
  if (v != version) {
    throw ProtocolError("peer's " + got + " endpoint format is version " + std::to_string(v) +
                        ", this rank's is " + std::to_string(version));
  }
}

}  // namespace dlcnet
