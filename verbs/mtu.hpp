// ibv_mtu enum <-> bytes. Pure, unit-tested: the enum is what ibv_modify_qp wants, bytes are
// what the endpoint blob and describe() carry.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <optional>

namespace dlcnet::verbs {

// 0 for a value outside the enum (a future or corrupt port attribute).
constexpr uint32_t mtu_to_bytes(ibv_mtu mtu) noexcept {
  switch (mtu) {
    case IBV_MTU_256:
      return 256;
    case IBV_MTU_512:
      return 512;
    case IBV_MTU_1024:
      return 1024;
    case IBV_MTU_2048:
      return 2048;
    case IBV_MTU_4096:
      return 4096;
  }
  return 0;
}

// Exact sizes only: a peer that sends 1500 is not speaking this protocol.
constexpr std::optional<ibv_mtu> mtu_from_bytes(uint32_t bytes) noexcept {
  switch (bytes) {
    case 256:
      return IBV_MTU_256;
    case 512:
      return IBV_MTU_512;
    case 1024:
      return IBV_MTU_1024;
    case 2048:
      return IBV_MTU_2048;
    case 4096:
      return IBV_MTU_4096;
    default:
      return std::nullopt;
  }
}

// A path runs at the smaller of the two ports' active MTUs.
constexpr ibv_mtu path_mtu(ibv_mtu a, ibv_mtu b) noexcept {
  return a < b ? a : b;
}

}  // namespace dlcnet::verbs
