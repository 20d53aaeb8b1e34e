// Channels of one node: the records it exchanged with one peer about one key. OP_IDs are
// unique within a channel (key-opnum-peer), so dependencies resolve and messages match through
// a per-channel index of record numbers sorted by opnum: 4 bytes a record, dropped once the
// job is built.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "trace/trace_model.hpp"

namespace dlcnet::trace {

struct Channel {
  uint16_t peer = 0;
  int32_t key = 0;
  int8_t offset = -1;       // opnum numbering offset (0 or 2, see numbering_offset); -1 unset
  uint32_t count = 0;       // records in the channel
  uint32_t begin = 0;       // first entry in the index
  int32_t first_opnum = 0;  // lowest opnum (once the index is built)
  // Set by a reader that saw every record of the channel arrive with a larger opnum than the
  // one before (and reported repeats itself): build_index() then neither sorts nor scans it.
  bool known_sorted = false;
  int32_t last_opnum = 0;  // for the reader's check
};

class ChannelTable {
 public:
  // Channel id of (peer, key), created on first use.
  uint32_t get_or_add(uint16_t peer, int32_t key) {
    if (dense(peer, key)) {
      const size_t at = dense_at(peer, key);
      if (at != kNoBlock && dense_[at] != kNone) return dense_[at];
    }
    return get_or_add_slow(peer, key);
  }
  // kNone when this node never exchanged `key` with `peer`.
  uint32_t find(uint16_t peer, int32_t key) const noexcept {
    if (dense(peer, key)) {  // every channel in the dense range is in dense_
      const size_t at = dense_at(peer, key);
      return at != kNoBlock ? dense_[at] : kNone;
    }
    return pack(peer, key) == last_key_ ? last_id_ : find_slow(peer, key);
  }
  Channel& operator[](uint32_t id) noexcept { return channels_[id]; }
  const Channel& operator[](uint32_t id) const noexcept { return channels_[id]; }
  uint32_t size() const noexcept { return static_cast<uint32_t>(channels_.size()); }

  // Builds the index. While a node is being built, Record::message holds the record's channel
  // id (kNone for set-up records): no extra array. With `consume`, Record::message is reset to
  // kNone on the way. Within a channel, records keep file order among equal opnums. Returns
  // the records that repeat an earlier record's opnum, except in known_sorted channels and
  // records already flagged kDuplicateFlag.
  std::vector<uint32_t> build_index(std::span<Record> records, bool consume);
  // Record numbers of channel `id` by ascending opnum.
  std::span<const uint32_t> records_of(uint32_t id) const noexcept {
    return {index_.data() + channels_[id].begin, channels_[id].count};
  }
  // Where lookup() looks first for `opnum` in channel `id` (nullptr when outside the
  // channel): for prefetching.
  const uint32_t* first_guess(uint32_t id, int32_t opnum) const noexcept {
    const Channel& c = channels_[id];
    const int64_t guess = static_cast<int64_t>(opnum) - c.first_opnum;
    if (guess < 0 || guess >= static_cast<int64_t>(c.count)) return nullptr;
    return index_.data() + c.begin + static_cast<size_t>(guess);
  }
  // The record with `opnum` in channel `id` (the first one if repeated), or kNone.
  uint32_t lookup(uint32_t id, int32_t opnum, std::span<const Record> records) const noexcept;
  // The node's set-up records (commands), which belong to no channel, in file order.
  void add_setup(uint32_t record) { setup_.push_back(record); }
  std::span<const uint32_t> setup() const noexcept { return setup_; }
  // Frees the index and the table.
  void release() noexcept;
  size_t memory_bytes() const noexcept;

 private:
  // Small peers and keys (every capture seen so far) are looked up in a table by peer and
  // key, without hashing: consecutive rows seldom share a channel, so the loader asks for a
  // different one nearly every time. 4 bytes per key per peer this node exchanged with (a
  // block of kDenseKeys made on the peer's first channel), dropped with the table. Rows for
  // every peer up to the highest one cost a node of a 256-node job up to a megabyte, and every
  // rank of a replay loads every node: loading a 256-node LeNet-5 job took 1.7 CPU seconds and
  // 273 MB per rank (0.19 s and 26 MB with blocks), 256 times over on one host.
  static constexpr int32_t kDenseKeys = 1024;
  static constexpr uint16_t kDensePeers = 256;
  static constexpr size_t kNoBlock = ~size_t{0};
  static bool dense(uint16_t peer, int32_t key) noexcept {
    return peer < kDensePeers && key >= 0 && key < kDenseKeys;
  }
  // Where (peer, key) is in dense_, or kNoBlock when `peer` has no block yet.
  size_t dense_at(uint16_t peer, int32_t key) const noexcept {
    if (peer >= block_of_.size() || block_of_[peer] == kNone) return kNoBlock;
    return static_cast<size_t>(block_of_[peer]) * kDenseKeys + static_cast<size_t>(key);
  }
  static uint64_t pack(uint16_t peer, int32_t key) noexcept {
    return (static_cast<uint64_t>(peer) << 32) | static_cast<uint32_t>(key);
  }
  void grow();
  uint32_t get_or_add_slow(uint16_t peer, int32_t key);
  uint32_t find_slow(uint16_t peer, int32_t key) const noexcept;

  std::vector<Channel> channels_;
  std::vector<uint64_t> slot_keys_;  // open addressing, linear probing
  std::vector<uint32_t> slot_ids_;   // channel id + 1; 0 = empty
  std::vector<uint32_t> dense_;      // channel id by dense_at(); kNone when absent
  std::vector<uint32_t> block_of_;   // by peer: its block of dense_, kNone when none
  std::vector<uint32_t> index_;
  std::vector<uint32_t> setup_;
  // Consecutive look-ups often name the same channel.
  mutable uint64_t last_key_ = ~uint64_t{0};
  mutable uint32_t last_id_ = kNone;
};

}  // namespace dlcnet::trace
