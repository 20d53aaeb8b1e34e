#include "verbs/endpoint.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/wire.hpp"
#include "verbs/mtu.hpp"

namespace dlcnet::verbs {
namespace {

constexpr uint32_t k24Bits = 0xFFFFFF;
constexpr size_t kRegionWireSize = 8 + 8 + 4;

}  // namespace

const char* to_string(ConnectMethod m) noexcept {
  return m == ConnectMethod::rdma_cm ? "rdma-cm" : "oob-tcp";
}

Bytes encode_endpoint(const Endpoint& ep) {
  WireWriter w;
  write_blob_tag(w, kEndpointTag, kEndpointVersion);
  w.u8(ep.is_peer ? 1 : 0).u8(static_cast<uint8_t>(ep.method));
  if (!ep.is_peer) return w.take();
  w.u32(ep.qpn).u32(ep.psn).raw(ep.gid).u16(ep.lid).u32(ep.mtu).u8(ep.max_dest_rd_atomic);
  w.u16(ep.cm_port).u32(static_cast<uint32_t>(ep.regions.size()));
  for (const RemoteRegion& r : ep.regions) w.u64(r.addr).u64(r.length).u32(r.rkey);
  return w.take();
}

Endpoint decode_endpoint(std::span<const uint8_t> bytes, int from_rank) {
  const std::string what = "verbs endpoint from rank " + std::to_string(from_rank);
  if (bytes.empty()) {
    throw ProtocolError(what + ": empty (rank " + std::to_string(from_rank) +
                        " does not run the verbs transport)");
  }
  WireReader r(bytes, what);
  try {
    check_blob_tag(r, kEndpointTag, kEndpointVersion);
  } catch (const ProtocolError& e) {
    throw ProtocolError(what + ": " + e.what());
  }
  Endpoint ep;
  const uint8_t is_peer = r.u8("is_peer");
  const uint8_t method = r.u8("method");
  if (is_peer > 1 || method > 1) {
    throw ProtocolError(what + ": bad flags (is_peer " + std::to_string(is_peer) + ", method " +
                        std::to_string(method) + ")");
  }
  ep.is_peer = is_peer == 1;
  ep.method = static_cast<ConnectMethod>(method);
  if (ep.is_peer) {
    ep.qpn = r.u32("qpn");
    ep.psn = r.u32("psn");
    auto gid = r.raw(ep.gid.size(), "gid");
    std::copy(gid.begin(), gid.end(), ep.gid.begin());
    ep.lid = r.u16("lid");
    ep.mtu = r.u32("mtu");
    ep.max_dest_rd_atomic = r.u8("max_dest_rd_atomic");
    ep.cm_port = r.u16("cm_port");
    const uint32_t count = r.u32("region count");
    // Check before allocating: a corrupt count must not reserve gigabytes.
    if (count > r.remaining() / kRegionWireSize) {
      throw ProtocolError(what + ": claims " + std::to_string(count) + " regions in " +
                          std::to_string(r.remaining()) + " bytes");
    }
    ep.regions.resize(count);
    for (RemoteRegion& reg : ep.regions) {
      reg.addr = r.u64("region addr");
      reg.length = r.u64("region length");
      reg.rkey = r.u32("region rkey");
    }
    if (ep.qpn > k24Bits || ep.psn > k24Bits) {
      throw ProtocolError(what + ": QPN " + std::to_string(ep.qpn) + " or PSN " +
                          std::to_string(ep.psn) + " wider than 24 bits");
    }
    if (!mtu_from_bytes(ep.mtu)) {
      throw ProtocolError(what + ": MTU " + std::to_string(ep.mtu) + " is not an IB MTU");
    }
  }
  r.expect_end();
  return ep;
}

}  // namespace dlcnet::verbs
