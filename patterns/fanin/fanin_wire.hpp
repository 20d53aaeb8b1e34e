// The fan-in's kinds of operation on the shared pattern wire (patterns/rank_wire.hpp).
#pragma once

#include <cstdint>

#include "patterns/rank_wire.hpp"

namespace dlcnet::fanin {

enum class Tag : uint8_t { data = 1, go = 2, pull = 3, bg = 4, ctl = 5 };
inline uint64_t wr_id(Tag t, uint64_t index) noexcept {
  return make_wr_id(static_cast<uint8_t>(t), index);
}
inline Tag tag_of(uint64_t id) noexcept {
  return static_cast<Tag>(kind_of(id));
}
using dlcnet::index_of;

// A go whose target is this is a tick: the server is alive and serving other ranks; the
// receiver's turn has not come. Sent each round to every worker with a round still ahead and
// every background rank not yet started, so a rank waiting for its turn hears from the server
// once a round and finds a frozen server within one wait limit, not one per round before it.
inline constexpr int64_t kTickTarget = -1;
using FaninWire = RankWire;

}  // namespace dlcnet::fanin
