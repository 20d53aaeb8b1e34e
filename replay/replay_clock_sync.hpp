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

namespace dlcnet::replay {

// Where a rank runs: ranks with rank 0's boot id share its CLOCK_MONOTONIC exactly.
struct HostIdentity {
  std::string hostname;
  std::string boot_id;  // /proc/sys/kernel/random/boot_id, "" when unreadable
};
HostIdentity this_host();
// Every rank's identity, by rank (a collective).
std::vector<HostIdentity> exchange_identities(Bootstrap& boot);

// K ping-pongs between rank 0 and every other rank in turn (a collective; the transport must
// be connected rank 0 <-> all and carry nothing else meanwhile). Returns every rank's estimate,
// by rank (rank 0's is zero with samples = K). Throws Error naming the rank that did not answer
// within `timeout`.
std::vector<OffsetEstimate> measure_offsets(Transport& t, Bootstrap& boot, RegionId region,
                                            uint32_t samples, std::chrono::milliseconds timeout);

}  // namespace dlcnet::replay
