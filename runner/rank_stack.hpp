// Every rank's TCP stack (core/tcp_stack.hpp) to rank 0, riding on the job's one gather: each
// rank's blob is framed with its stack in front, and rank 0 takes the stacks off again before
// the pattern reads its blobs. The report's context then says, per rank (ranks in one network
// namespace grouped), which congestion control, buffers and window each rank measured with.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/bytes.hpp"

namespace dlcnet::runner {

// `blob` with `stack` (compact JSON, its length in 4 bytes little endian) in front.
Bytes with_stack(const nlohmann::json& stack, const Bytes& blob);

// Takes each rank's stack off its gathered blob (in place). Throws Error naming the rank when a
// frame is cut or its JSON does not parse.
std::vector<nlohmann::json> take_stacks(std::vector<Bytes>& gathered);

// [{"ranks": [0, 1, ...], <the stack's keys>}]: ranks with the same stack (the same namespace,
// the same settings) in one entry, in rank order of their first rank.
nlohmann::json stacks_json(const std::vector<nlohmann::json>& stacks);

}  // namespace dlcnet::runner
