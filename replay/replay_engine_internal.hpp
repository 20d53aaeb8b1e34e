// Shared by the two halves of the engine: per-entry flags and what a wr_id carries.
#pragma once

#include <cstdint>

namespace dlcnet::replay {

inline constexpr uint8_t kDue = 1;        // a send whose planned time has come
inline constexpr uint8_t kArrived = 2;    // a receive whose last part arrived
inline constexpr uint8_t kDone = 4;       // completed, dependents told
inline constexpr uint8_t kWriteDone = 8;  // write mode: every part's write completed

// wr_id = entry << 2 | kind.
enum WrKind : uint64_t { kWrData = 0, kWrRecv = 1, kWrNotify = 2 };
constexpr uint64_t make_wr(uint32_t entry, WrKind kind) noexcept {
  return (static_cast<uint64_t>(entry) << 2) | kind;
}
constexpr uint32_t wr_entry(uint64_t wr) noexcept {
  return static_cast<uint32_t>(wr >> 2);
}
constexpr WrKind wr_kind(uint64_t wr) noexcept {
  return static_cast<WrKind>(wr & 3);
}

}  // namespace dlcnet::replay
