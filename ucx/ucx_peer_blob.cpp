#include "ucx/ucx_peer_blob.hpp"

#include <string>

#include "core/error.hpp"
#include "core/wire.hpp"

namespace dlcnet::ucx {
namespace {

// Far above any real run; only guards against a corrupt count allocating gigabytes.
constexpr uint32_t kMaxRegions = 1u << 16;
constexpr uint32_t kMaxAddressBytes = 1u << 20;
constexpr uint32_t kMaxRkeyBytes = 1u << 16;

}  // namespace

Bytes encode_peer_blob(const PeerBlob& blob) {
  WireWriter w;
  write_blob_tag(w, kBlobTag, kBlobVersion);
  w.blob(blob.worker_address);
  w.str(blob.selection.tls).str(blob.selection.net_devices).str(blob.memory_domain);
  w.u32(static_cast<uint32_t>(blob.regions.size()));
  for (const RegionInfo& r : blob.regions) w.u64(r.addr).u64(r.length).blob(r.rkey);
  return w.take();
}

PeerBlob decode_peer_blob(std::span<const uint8_t> data, int from_rank) {
  const std::string who = "rank " + std::to_string(from_rank);
  WireReader r(data, "ucx endpoint from " + who);
  try {
    check_blob_tag(r, kBlobTag, kBlobVersion);
  } catch (const ProtocolError& e) {
    throw ProtocolError(who + ": " + e.what());
  }
  PeerBlob b;
  b.worker_address = r.blob("worker address", kMaxAddressBytes);
  b.selection.tls = r.str("UCX_TLS");
  b.selection.net_devices = r.str("UCX_NET_DEVICES");
  b.memory_domain = r.str("memory domain");
  uint32_t n = r.u32("region count");
  if (n > kMaxRegions)
    throw ProtocolError(who + ": claims " + std::to_string(n) + " memory regions, more than " +
                        std::to_string(kMaxRegions));
  b.regions.resize(n);
  for (RegionInfo& reg : b.regions) {
    reg.addr = r.u64("region address");
    reg.length = r.u64("region length");
    reg.rkey = r.blob("region rkey", kMaxRkeyBytes);
  }
  r.expect_end();
  return b;
}

}  // namespace dlcnet::ucx
