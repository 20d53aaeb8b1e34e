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
  // by rank: clock minus rank 0's, from ping-pongs (through the kernel's leader, see `via`)
  std::vector<OffsetEstimate> pingpong;
  std::vector<OffsetEstimate> kernel;  // by rank: link_to_monotonic() of that rank
  // Rank r's clock minus rank 0's through CLOCK_MONOTONIC: valid when r runs on rank 0's
  // kernel (same boot id); uncertainty the sum of both links'.
  OffsetEstimate via_kernel(size_t r) const noexcept;
  // by rank: r itself where r was pinged (and for rank 0), 0 where r shares rank 0's kernel
  // and was not pinged, else the leader of r's kernel.
  std::vector<int> via;
};

// Through which rank each rank's clock is measured (see measure_offsets): by rank, r itself
// (pinged; rank 0; every rank when `hosts` is null, and ranks whose boot id is unknown), 0
// (on rank 0's kernel), or the lowest rank of r's kernel.
std::vector<int> clock_paths(const std::vector<HostIdentity>* hosts, int n);

// Fills round.pingpong[r] of every rank measured through its kernel's leader L (via[r] == L,
// L not r nor 0): L's offset plus the difference of r's and L's links to their shared
// CLOCK_MONOTONIC (kernel[r] - kernel[L]); the three bounds add up.
void compose_via_leaders(ClockRound& round);

// K ping-pongs between rank 0 and other ranks in turn (a collective; the transport must be
// connected rank 0 <-> all and carry nothing else meanwhile). Without `hosts` every other rank
// is pinged. With every rank's identity, only one rank per kernel is (the lowest rank of each
// kernel that is not rank 0's, its leader): ranks on rank 0's kernel are aligned through
// CLOCK_MONOTONIC (ClockRound::via_kernel), and the other ranks of a leader's kernel through
// the leader (its offset plus the difference of their links to their CLOCK_MONOTONIC), so
// the time at rank 0 grows with the number of hosts, not of ranks. Returns every rank's
// estimate, by rank (rank 0's is zero with samples = K). Throws Error naming the rank that did
// not answer within `timeout`. `idle` as the engine's: a waiting rank that spins on a CPU
// another rank needs delays the ping-pong under way by whole time slices.
ClockRound measure_offsets(Transport& t, Bootstrap& boot, RegionId region, uint32_t samples,
                           std::chrono::milliseconds timeout, Idle idle,
                           const std::vector<HostIdentity>* hosts = nullptr);

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
  OffsetEstimate before, after;  // ping-pong estimates (zero samples where none were made)
  int via = -1;                  // another host's rank this rank's estimates went through
  ClockModel model;              // what the latencies use (for ranks on rank 0's kernel: the
                                 // CLOCK_MONOTONIC estimates, ClockRound::via_kernel)
};
std::vector<ClockReport> clock_reports(const std::vector<HostIdentity>& hosts,
                                       const ClockRound& before, const ClockRound& after);

}  // namespace dlcnet
