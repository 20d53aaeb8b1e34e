// Where a fan-in's messages live, in one place for the server that receives them and the workers
// that write into its memory (as the ring's ring_memory.hpp). The server's data region holds
// every worker's burst (worker w from (w-1) x the burst's bytes, message k at its offset in the
// burst), then every background rank's kBgRecvs receive slots, then (--op write) one 8-byte
// notification slot per worker and message. A worker holds its burst and, after it, the
// server's answer (--pull); a background rank one message. The control region: two slots per
// rank (the go and the control message), at least six (a sender's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "patterns/fanin/fanin_spec.hpp"

namespace dlcnet::fanin {

inline constexpr size_t kCtlSlot = 64;    // bytes per control message slot
inline constexpr uint32_t kBgRecvs = 32;  // receives the server keeps posted per background rank

class ServerLayout {
 public:
  ServerLayout(const FaninSpec& s, int world);
  size_t data(int worker, size_t k) const noexcept;           // message k of worker `worker` (1..W)
  size_t background(size_t b, uint64_t slot) const noexcept;  // background rank b's slot
  size_t notification(int worker, size_t k) const noexcept;   // --op write
  size_t bytes() const noexcept;

 private:
  const FaninSpec& s_;
  size_t workers_;
  std::vector<uint64_t> offsets_;
};

// Bytes each rank needs in its control and data regions.
size_t ctl_bytes(int world);
size_t data_bytes(const FaninSpec& s, int rank, int world);
// Where a worker keeps the server's answer to message k (--pull).
size_t pull_offset(const FaninSpec& s, const std::vector<uint64_t>& burst_offsets, size_t k);

}  // namespace dlcnet::fanin
