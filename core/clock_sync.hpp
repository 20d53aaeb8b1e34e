// Measuring the clock offsets of the ranks to rank 0 over the transport itself (the path the
// job's messages take), recognising ranks that share rank 0's clock outright, and the models
// that map every rank's clock onto rank 0's from the rounds before and after a run.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/bootstrap.hpp"
#include "core/clock_model.hpp"
#include "core/idle.hpp"
#include "core/transport.hpp"

namespace dlcnet {

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

// Whether rank r runs on rank 0's kernel (same, non-empty boot id).
bool same_kernel(const std::vector<HostIdentity>& hosts, size_t r) noexcept;

// Every rank's clock mapped onto rank 0's: ranks on rank 0's kernel through CLOCK_MONOTONIC,
// the others through the ping-pongs; drift from the two rounds.
std::vector<ClockModel> clock_models(const std::vector<HostIdentity>& hosts,
                                     const ClockRound& before, const ClockRound& after);
// The same from the round before the run only (no drift): to act on rank 0's time before the
// run, e.g. to start at an instant rank 0 chose.
ClockModel model_before(const std::vector<HostIdentity>& hosts, const ClockRound& before, size_t r);

// What the reports say about one rank's clock.
struct ClockReport {
  HostIdentity host;
  OffsetEstimate before, after;  // ping-pong estimates
  ClockModel model;              // what the latencies use (for ranks on rank 0's kernel: the
                                 // CLOCK_MONOTONIC estimates, ClockRound::via_kernel)
};
std::vector<ClockReport> clock_reports(const std::vector<HostIdentity>& hosts,
                                       const ClockRound& before, const ClockRound& after);

}  // namespace dlcnet
