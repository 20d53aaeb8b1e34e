#include "verbs/endpoint.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/wire.hpp"

namespace dlcnet::verbs {
namespace {

Endpoint sample() {
  Endpoint ep;
  ep.is_peer = true;
  ep.method = ConnectMethod::rdma_cm;
  ep.qpn = 0x123456;
  ep.psn = 0xABCDEF;
  ep.gid = *parse_gid("::ffff:198.18.0.1");
  ep.lid = 7;
  ep.mtu = 1024;
  ep.max_dest_rd_atomic = 128;
  ep.cm_port = 40001;
  ep.regions = {{0x7f0000001000, 1 << 20, 0x1111}, {0x7f0000200000, 64, 0x2222}};
  return ep;
}

std::string error_of(const Bytes& b, int rank) {
  try {
    decode_endpoint(b, rank);
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "";
}

TEST(Endpoint, RoundTripsEveryField) {
  const Endpoint in = sample();
  const Endpoint out = decode_endpoint(encode_endpoint(in), 1);
  EXPECT_TRUE(out.is_peer);
  EXPECT_EQ(out.method, ConnectMethod::rdma_cm);
  EXPECT_EQ(out.qpn, in.qpn);
  EXPECT_EQ(out.psn, in.psn);
  EXPECT_EQ(out.gid, in.gid);
  EXPECT_EQ(out.lid, in.lid);
  EXPECT_EQ(out.mtu, in.mtu);
  EXPECT_EQ(out.max_dest_rd_atomic, in.max_dest_rd_atomic);
  EXPECT_EQ(out.cm_port, in.cm_port);
  ASSERT_EQ(out.regions.size(), 2u);
  EXPECT_EQ(out.regions[0].addr, in.regions[0].addr);
  EXPECT_EQ(out.regions[0].length, in.regions[0].length);
  EXPECT_EQ(out.regions[1].rkey, in.regions[1].rkey);
}

TEST(Endpoint, NonPeerBlobCarriesOnlyTheFlags) {
  Endpoint in;
  in.is_peer = false;
  const Bytes b = encode_endpoint(in);
  const Endpoint out = decode_endpoint(b, 2);
  EXPECT_FALSE(out.is_peer);
  EXPECT_EQ(out.method, ConnectMethod::oob_tcp);
  EXPECT_TRUE(out.regions.empty());
}

TEST(Endpoint, EveryTruncationIsAProtocolErrorNamingTheRank) {
  const Bytes full = encode_endpoint(sample());
  for (size_t n = 0; n < full.size(); ++n) {
    const std::string msg = error_of(Bytes(full.begin(), full.begin() + n), 3);
    ASSERT_NE(msg.find("rank 3"), std::string::npos) << "length " << n << ": " << msg;
  }
}

TEST(Endpoint, TrailingBytesAreRejected) {
  Bytes b = encode_endpoint(sample());
  b.push_back(0);
  EXPECT_NE(error_of(b, 1).find("trailing"), std::string::npos);
}

TEST(Endpoint, ForeignTransportIsNamed) {
  WireWriter w;
  write_blob_tag(w, "ucx", 1);
  w.u32(42);
  const std::string msg = error_of(w.take(), 5);
  EXPECT_NE(msg.find("rank 5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ucx"), std::string::npos) << msg;
  EXPECT_NE(msg.find("verbs-rc"), std::string::npos) << msg;
}

TEST(Endpoint, OtherFormatVersionIsNamed) {
  WireWriter w;
  write_blob_tag(w, kEndpointTag, kEndpointVersion + 1);
  const std::string msg = error_of(w.take(), 1);
  EXPECT_NE(msg.find("version 2"), std::string::npos) << msg;
}

TEST(Endpoint, EmptyBlobSaysThePeerRunsAnotherTransport) {
  EXPECT_NE(error_of({}, 4).find("does not run the verbs transport"), std::string::npos);
}

TEST(Endpoint, ImplausibleFieldsAreRejected) {
  Endpoint ep = sample();
  ep.mtu = 1500;
  EXPECT_NE(error_of(encode_endpoint(ep), 1).find("MTU 1500"), std::string::npos);
  ep = sample();
  ep.qpn = 0x1000000;
  EXPECT_NE(error_of(encode_endpoint(ep), 1).find("24 bits"), std::string::npos);
}

TEST(Endpoint, HugeRegionCountFailsBeforeAllocating) {
  Endpoint ep = sample();
  ep.regions.clear();
  Bytes b = encode_endpoint(ep);
  // The region count is the last field of a blob without regions.
  for (size_t i = b.size() - 4; i < b.size(); ++i) b[i] = 0xFF;
  EXPECT_NE(error_of(b, 1).find("regions"), std::string::npos);
}

}  // namespace
}  // namespace dlcnet::verbs
