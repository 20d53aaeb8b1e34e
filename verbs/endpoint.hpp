// What one rank tells another in connect(): its QP's address and its regions' remote keys.
// Encoded with WireWriter behind the tag "verbs-rc" so a rank running UCX, or another version
// of this format, is named instead of failing later in the NIC. Pure, unit-tested.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/bytes.hpp"
#include "verbs/gid.hpp"

namespace dlcnet::verbs {

inline constexpr char kEndpointTag[] = "verbs-rc";
inline constexpr uint16_t kEndpointVersion = 1;

enum class ConnectMethod : uint8_t { oob_tcp = 0, rdma_cm = 1 };
const char* to_string(ConnectMethod m) noexcept;

struct RemoteRegion {
  uint64_t addr = 0;
  uint64_t length = 0;
  uint32_t rkey = 0;
};

struct Endpoint {
  // Whether the sender listed the receiver among its peers. Every rank sends a blob to every
  // other rank so that asymmetric peer lists are detected on both sides instead of hanging.
  bool is_peer = false;
  ConnectMethod method = ConnectMethod::oob_tcp;
  // The rest is present only when is_peer.
  uint32_t qpn = 0;  // 0 on the rdma_cm path: the QP is created during the CM handshake
  uint32_t psn = 0;
  GidBytes gid{};
  uint16_t lid = 0;
  uint32_t mtu = 0;                // the MTU this rank offers (-m, else the port's active)
  uint8_t max_dest_rd_atomic = 0;  // reads this rank will serve at once
  uint16_t cm_port = 0;            // rdma_cm listener port (host order), 0 if not listening
  std::vector<RemoteRegion> regions;
};

Bytes encode_endpoint(const Endpoint& ep);

// Throws ProtocolError naming `from_rank` for truncated, foreign or trailing bytes, an MTU
// that is not an IB MTU, or a QPN/PSN wider than 24 bits.
Endpoint decode_endpoint(std::span<const uint8_t> bytes, int from_rank);

}  // namespace dlcnet::verbs
