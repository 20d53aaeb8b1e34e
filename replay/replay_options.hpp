// What a replay is asked to do, as plain data shared by the plan, the engine and the reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/idle.hpp"

namespace dlcnet::replay {

// When a record of the trace is posted (docs/replay.md, "Replay semantics"):
// dag: once its dependencies completed in the replay, plus its dTime (scaled) as think time;
// timed: at the trace's own time stamp relative to the node's first record (open loop);
// asap: once its dependencies completed, no think time.
enum class Mode : uint8_t { dag, timed, asap };

// The transport operation that carries a message: two-sided send/receive, or an RDMA write
// into the receiver's landing area followed by a zero-byte notification send.
enum class Transfer : uint8_t { send, write };

const char* to_string(Mode m) noexcept;
const char* to_string(Transfer t) noexcept;
std::optional<Mode> mode_from_string(std::string_view s) noexcept;
std::optional<Transfer> transfer_from_string(std::string_view s) noexcept;

struct PlanOptions {
  Mode mode = Mode::dag;
  double time_scale = 1.0;  // multiplies think times (dag) and trace time stamps (timed)
  uint32_t iterations = 0;  // training iterations to replay; 0: as many as the trace holds
  Transfer transfer = Transfer::send;
  // Largest transport operation: messages above it are split into parts (rxe: 8 MiB). The
  // smallest max_message_size() over all ranks, so that both ends split alike.
  uint64_t part_bytes = uint64_t{1} << 30;
};

}  // namespace dlcnet::replay
