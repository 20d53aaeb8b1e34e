#include "patterns/fanin/fanin_memory.hpp"

#include <algorithm>

namespace dlcnet::fanin {

ServerLayout::ServerLayout(const FaninSpec& s, int world)
    : s_(s), workers_(static_cast<size_t>(worker_count(world, s))), offsets_(s.burst_offsets()) {}

size_t ServerLayout::data(int worker, size_t k) const noexcept {
  return static_cast<size_t>(worker - 1) * s_.burst_bytes() + offsets_[k];
}

size_t ServerLayout::background(size_t b, uint64_t slot) const noexcept {
  return workers_ * s_.burst_bytes() + (b * kBgRecvs + slot % kBgRecvs) * s_.bg_size;
}

size_t ServerLayout::notification(int worker, size_t k) const noexcept {
  return workers_ * s_.burst_bytes() + static_cast<size_t>(s_.background) * kBgRecvs * s_.bg_size +
         (static_cast<size_t>(worker - 1) * s_.burst.size() + k) * 8;
}

size_t ServerLayout::bytes() const noexcept {
  return workers_ * s_.burst_bytes() + static_cast<size_t>(s_.background) * kBgRecvs * s_.bg_size +
         (s_.op == Op::write ? workers_ * s_.burst.size() * 8 : 0);
}

size_t ctl_bytes(int world) {
  // Two slots per rank at the server; a sender uses six (go, stop, done and its answer,
  // fillers, a write's notification), more than two per rank when there is one worker.
  return std::max<size_t>(2 * static_cast<size_t>(world), 6) * kCtlSlot;
}

size_t data_bytes(const FaninSpec& s, int rank, int world) {
  if (rank == kServer) return ServerLayout(s, world).bytes();
  if (is_worker(rank, world, s)) return 2 * s.burst_bytes();
  return s.bg_size;
}

size_t pull_offset(const FaninSpec& s, const std::vector<uint64_t>& burst_offsets, size_t k) {
  return s.burst_bytes() + burst_offsets[k];
}

}  // namespace dlcnet::fanin
