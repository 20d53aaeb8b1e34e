// Measuring the clock offsets of the ranks to rank 0 over the transport itself (the path the
// replay's messages take), and recognising ranks that share rank 0's clock outright.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/bootstrap.hpp"
#include "core/transport.hpp"
#include "replay/replay_clock.hpp"
#include "replay/replay_options.hpp"

namespace dlcnet::replay {

// Where a rank runs: ranks with rank 0's boot id share its CLOCK_MONOTONIC exactly.
struct HostIdentity {
  std::string hostname;
  std::string boot_id;  // /proc/sys/kernel/random/boot_id, "" when unreadable
};
HostIdentity this_host();
// Every rank's identity, by rank (a collective).
std::vector<HostIdentity> exchange_identities(Bootstrap& boot);

// The offset of this process's now_ns() (a TSC scaled per process) to CLOCK_MONOTONIC, which
// every process of one kernel shares exactly: ranks on rank 0's kernel get their offset to
// rank 0 as the difference of these two, far tighter than a ping-pong. `at_ns` is on now_ns().
OffsetEstimate link_to_monotonic(uint32_t samples) noexcept;

struct ClockRound {
  std::vector<OffsetEstimate> pingpong;  // by rank: clock minus rank 0's, from ping-pongs
  std::vector<OffsetEstimate> kernel;    // by rank: link_to_monotonic() of that rank
  // Rank r's clock minus rank 0's through CLOCK_MONOTONIC: valid when r runs on rank 0's
  // kernel (same boot id); uncertainty the sum of both links'.
  OffsetEstimate via_kernel(size_t r) const noexcept;
};

// K ping-pongs between rank 0 and every other rank in turn (a collective; the transport must
// be connected rank 0 <-> all and carry nothing else meanwhile). Returns every rank's estimate,
// by rank (rank 0's is zero with samples = K). Throws Error naming the rank that did not answer
// within `timeout`. `idle` as the engine's: a waiting rank that spins on a CPU another rank
// needs delays the ping-pong under way by whole time slices.
ClockRound measure_offsets(Transport& t, Bootstrap& boot, RegionId region, uint32_t samples,
                           std::chrono::milliseconds timeout, Idle idle);

}  // namespace dlcnet::replay
