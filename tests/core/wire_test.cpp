#include "core/wire.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace dlcnet {
namespace {

TEST(Wire, RoundTripsEveryFieldInNetworkOrder) {
  WireWriter w;
  w.u8(7).u16(0x0102).u32(0x03040506).u64(0x0708090a0b0c0d0eULL).i64(-5).str("rxe0");
  const Bytes& b = w.bytes();
  ASSERT_GE(b.size(), 7u);
  EXPECT_EQ(b[1], 0x01);  // big-endian
  EXPECT_EQ(b[2], 0x02);
  WireReader r(b, "test");
  EXPECT_EQ(r.u8("a"), 7);
  EXPECT_EQ(r.u16("b"), 0x0102);
  EXPECT_EQ(r.u32("c"), 0x03040506u);
  EXPECT_EQ(r.u64("d"), 0x0708090a0b0c0d0eULL);
  EXPECT_EQ(r.i64("e"), -5);
  EXPECT_EQ(r.str("f"), "rxe0");
  EXPECT_NO_THROW(r.expect_end());
}

TEST(Wire, TruncatedMessageNamesFieldAndOffset) {
  WireWriter w;
  w.u32(1).u16(2);
  Bytes b = w.take();
  b.pop_back();
  WireReader r(b, "endpoint from rank 3");
  r.u32("qpn");
  try {
    r.u16("lid");
    FAIL() << "no exception";
  } catch (const ProtocolError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("endpoint from rank 3"), std::string::npos) << m;
    EXPECT_NE(m.find("'lid'"), std::string::npos) << m;
    EXPECT_NE(m.find("offset 4"), std::string::npos) << m;
  }
}

TEST(Wire, BlobLengthBeyondLimitIsRejectedBeforeReading) {
  WireWriter w;
  w.u32(1000).u8(1);
  WireReader r(w.bytes(), "x");
  EXPECT_THROW(r.blob("payload", 100), ProtocolError);
}

TEST(Wire, TrailingBytesAreAnError) {
  WireWriter w;
  w.u16(1).u8(9);
  WireReader r(w.bytes(), "x");
  r.u16("a");
  EXPECT_THROW(r.expect_end(), ProtocolError);
}

TEST(Wire, FrameHeaderRoundTrip) {
  Bytes payload{1, 2, 3};
  Bytes f = encode_frame(42, payload);
  ASSERT_EQ(f.size(), kFrameHeaderSize + 3);
  auto h = decode_frame_header(
      std::span<const uint8_t, kFrameHeaderSize>(f.data(), kFrameHeaderSize), "peer");
  EXPECT_EQ(h.type, 42);
  EXPECT_EQ(h.length, 3u);
  EXPECT_EQ(h.version, kWireVersion);
}

TEST(Wire, ForeignBytesAreNotADlcnetPeer) {
  Bytes http{'G', 'E', 'T', ' ', '/', ' ', 'H', 'T', 'T', 'P', '/', '1'};
  try {
    decode_frame_header(std::span<const uint8_t, kFrameHeaderSize>(http.data(), kFrameHeaderSize),
                        "10.0.0.1:18515");
    FAIL();
  } catch (const ProtocolError& e) {
    EXPECT_NE(std::string(e.what()).find("not a dlcnet peer"), std::string::npos) << e.what();
  }
}

TEST(Wire, OtherVersionIsNamed) {
  Bytes f = encode_frame(1, {}, kWireVersion + 1);
  try {
    decode_frame_header(std::span<const uint8_t, kFrameHeaderSize>(f.data(), kFrameHeaderSize),
                        "rank 1");
    FAIL();
  } catch (const ProtocolError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("version " + std::to_string(kWireVersion + 1)), std::string::npos) << m;
  }
}

TEST(Wire, OversizedFrameLengthIsRejected) {
  WireWriter w;
  w.u32(kWireMagic).u16(kWireVersion).u16(1).u32(kWireMaxPayload + 1);
  EXPECT_THROW(
      decode_frame_header(
          std::span<const uint8_t, kFrameHeaderSize>(w.bytes().data(), kFrameHeaderSize), "p"),
      ProtocolError);
}

TEST(Wire, BlobTagMismatchNamesBothTransports) {
  WireWriter w;
  write_blob_tag(w, "ucx", 1);
  WireReader r(w.bytes(), "rank 1");
  try {
    check_blob_tag(r, "verbs-rc", 1);
    FAIL();
  } catch (const ProtocolError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("ucx"), std::string::npos);
    EXPECT_NE(m.find("verbs-rc"), std::string::npos);
  }
}

}  // namespace
}  // namespace dlcnet
