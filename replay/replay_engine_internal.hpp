// Shared by the two halves of the engine: per-entry flags and what a wr_id carries.
#pragma once

#include <cstdint>

namespace dlcnet::replay {

inline constexpr uint8_t kDue = 1;        // a send whose planned time has come
inline constexpr uint8_t kArrived = 2;    // a receive whose last part arrived
inline constexpr uint8_t kDone = 4;       // completed, dependents told
inline constexpr uint8_t kWriteDone = 8;  // write mode: every part's write completed

// wr_id = part << 34 | entry << 2 | kind. The part index is there because the parts of a split
// message may complete out of order (over UCX a small eager last part overtakes the rendezvous
// parts before it): each completion's length is checked against its own part's.
enum WrKind : uint64_t { kWrData = 0, kWrRecv = 1, kWrNotify = 2 };
inline constexpr uint32_t kMaxParts = uint32_t{1} << 30;
constexpr uint64_t make_wr(uint32_t entry, WrKind kind, uint32_t part = 0) noexcept {
  return (static_cast<uint64_t>(part) << 34) | (static_cast<uint64_t>(entry) << 2) | kind;
}
constexpr uint32_t wr_entry(uint64_t wr) noexcept {
  return static_cast<uint32_t>(wr >> 2);
}
constexpr WrKind wr_kind(uint64_t wr) noexcept {
  return static_cast<WrKind>(wr & 3);
}
constexpr uint32_t wr_part(uint64_t wr) noexcept {
  return static_cast<uint32_t>(wr >> 34);
}
static_assert(wr_part(make_wr(~uint32_t{0}, kWrNotify, kMaxParts - 1)) == kMaxParts - 1 &&
              wr_entry(make_wr(~uint32_t{0}, kWrNotify, kMaxParts - 1)) == ~uint32_t{0} &&
              wr_kind(make_wr(~uint32_t{0}, kWrNotify, kMaxParts - 1)) == kWrNotify);

}  // namespace dlcnet::replay
