// What a parameter-server incast run (dlc-bench fanin) does, as plain data every rank agrees on:
// rank 0 is the server, ranks 1..W the workers, the B ranks after them background senders.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/release_report.hpp"
#include "core/transport.hpp"

namespace dlcnet::fanin {

struct FaninSpec {
  int background = 0;           // --background B
  std::vector<uint64_t> burst;  // one worker's burst: message sizes in posting order
  std::string burst_source;     // how the burst was chosen, for the reports
  Op op = Op::send;             // --op: send, or write (then an 8-byte send per message notifies)
  bool pull = false;            // --pull: the server answers every worker's burst
  uint32_t iterations = 10;     // -n: measured incast iterations
  uint32_t warmup = 2;          // --warmup: unmeasured incast iterations first
  uint32_t solo = 3;            // --solo: each worker's burst alone, this many times
  double gap_us = 0;            // --gap: compute time between iterations
  Release release = Release::instant;
  uint64_t bg_size = 65536;  // --bg-size
  uint32_t bg_window = 8;    // --bg-window: background messages in flight per rank
  double bg_lead_ms = 20;    // --bg-lead: background runs this long before the first burst
  int timeout_s = 30;

  uint64_t burst_bytes() const noexcept;
  // What the server receives per message: the message, or the write's 8-byte notification.
  uint64_t arrival_bytes(size_t k) const noexcept { return op == Op::write ? 8 : burst[k]; }
  // Where message k of the burst lies in a buffer holding the whole burst.
  std::vector<uint64_t> burst_offsets() const;
  // Everything that must be equal on every rank (not the timeout: each rank's own patience).
  uint64_t fingerprint() const noexcept;
};

// Roles by rank.
inline constexpr int kServer = 0;
inline bool is_worker(int rank, int world_size, const FaninSpec& s) noexcept {
  return rank >= 1 && rank < world_size - s.background;
}
inline int worker_count(int world_size, const FaninSpec& s) noexcept {
  return world_size - 1 - s.background;
}

// The schedule every rank derives alike: rounds in order; a round names who bursts.
enum class RoundKind : uint8_t { solo, warmup, incast };
struct Round {
  RoundKind kind = RoundKind::solo;
  uint32_t iteration = 0;  // within its kind
  int solo_worker = 0;     // solo rounds: the one worker; else 0 (every worker)
};
std::vector<Round> schedule(const FaninSpec& s, int workers);
bool takes_part(const Round& r, int rank) noexcept;
const char* to_string(RoundKind k) noexcept;

}  // namespace dlcnet::fanin
