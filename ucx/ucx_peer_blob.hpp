// What one rank tells each peer in connect(): where to reach its worker, which transports and
// devices it lets UCX use, and the remote keys of its registered regions.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/bytes.hpp"
#include "ucx/ucx_settings.hpp"

namespace dlcnet::ucx {

inline constexpr const char* kBlobTag = "ucx";
inline constexpr uint16_t kBlobVersion = 2;

struct RegionInfo {
  uint64_t addr = 0;
  uint64_t length = 0;
  Bytes rkey;  // ucp_rkey_pack() output
  bool operator==(const RegionInfo&) const = default;
};

struct PeerBlob {
  Bytes worker_address;
  Selection selection;
  std::string memory_domain;  // shared_memory_domain(): equal on both ends = one host
  std::vector<RegionInfo> regions;
  bool operator==(const PeerBlob&) const = default;
};

Bytes encode_peer_blob(const PeerBlob& blob);
// Throws ProtocolError naming `from_rank` for foreign, truncated or other-version blobs.
PeerBlob decode_peer_blob(std::span<const uint8_t> data, int from_rank);

}  // namespace dlcnet::ucx
