// The point-to-point messages a collective expands to, per rank, under the algorithms stated
// in docs/chakra.md: ring all-reduce (2(N-1) messages), ring all-gather and reduce-scatter
// (N-1), pairwise all-to-all (N-1), and flat trees from or to a root for broadcast, reduce,
// gather, scatter and barrier. A buffer of S bytes is cut into N chunks, chunk i of
// S/N + (i < S mod N ? 1 : 0) bytes, as dlc-bench cuts a vector.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/chakra/chakra_model.hpp"

namespace dlcnet::trace::chakra {

// What comm_size means for ALL_GATHER, REDUCE_SCATTER(_BLOCK), GATHER and SCATTER: the whole
// buffer, all ranks' pieces together (ASTRA-sim's reading, the default), or one rank's piece.
enum class SizeReading : uint8_t { kWhole, kPerRank };

struct CollectiveOptions {
  SizeReading size_reading = SizeReading::kWhole;
  int32_t root = 0;  // the root of the rooted collectives, a group rank (Chakra names none)
  // ASTRA-sim's communicator-group file (--comm-groups; none when empty): process groups
  // beside those the job's files define (chakra_groups.hpp).
  std::string comm_groups;
};

struct Traffic {
  uint64_t sends = 0;
  uint64_t send_bytes = 0;
  uint64_t recvs = 0;
  uint64_t recv_bytes = 0;
  Traffic& operator+=(const Traffic& o) noexcept;
};

// One point-to-point step of a rank in a collective: a send to or a receive from `peer` of
// `bytes`. Rounds order the steps: a send of round k > 0 carries what the rank's receives of
// round k-1 brought (a ring forwards the chunk it received; a barrier's root answers once all
// ranks have called), so it waits for them; the sends and receives of round 0 wait for nothing
// but the collective's start.
struct Step {
  uint32_t round = 0;
  int32_t peer = 0;
  uint64_t bytes = 0;
  bool send = false;
};

// Rank `rank`'s steps in one collective `c` of comm_size `size` among `n` ranks, in the order
// the algorithm takes them (by round, then sends before receives). The k-th step of rank a
// that sends to rank b meets the k-th step of rank b that receives from rank a.
std::vector<Step> steps(Collective c, uint64_t size, int32_t n, int32_t rank,
                        const CollectiveOptions& o);

// Rank `rank`'s messages in one collective: the sums of its steps (byte counts saturate at
// 2^64-1 rather than wrap).
Traffic expand(Collective c, uint64_t size, int32_t n, int32_t rank, const CollectiveOptions& o);

// "ring", "pairwise", "flat tree from the root"...
std::string_view algorithm_name(Collective c) noexcept;

}  // namespace dlcnet::trace::chakra
