#include "trace/trace_channels.hpp"

#include <algorithm>

#include "trace/trace_pages.hpp"

namespace dlcnet::trace {
namespace {

size_t slot_of(uint64_t k, size_t mask) noexcept {
  // Fibonacci hashing spreads (peer, key) pairs that differ only in low bits.
  return static_cast<size_t>((k * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

}  // namespace

void ChannelTable::grow() {
  const size_t cap = slot_keys_.empty() ? 64 : slot_keys_.size() * 2;
  slot_keys_.assign(cap, 0);
  slot_ids_.assign(cap, 0);
  for (uint32_t id = 0; id < channels_.size(); ++id) {
    const uint64_t k = pack(channels_[id].peer, channels_[id].key);
    size_t s = slot_of(k, cap - 1);
    while (slot_ids_[s] != 0) s = (s + 1) & (cap - 1);
    slot_keys_[s] = k;
    slot_ids_[s] = id + 1;
  }
}

uint32_t ChannelTable::find_slow(uint16_t peer, int32_t key) const noexcept {
  if (slot_keys_.empty()) return kNone;
  const uint64_t k = pack(peer, key);
  const size_t mask = slot_keys_.size() - 1;
  for (size_t s = slot_of(k, mask);; s = (s + 1) & mask) {
    if (slot_ids_[s] == 0) return kNone;
    if (slot_keys_[s] == k) {
      last_key_ = k;
      last_id_ = slot_ids_[s] - 1;
      return last_id_;
    }
  }
}

uint32_t ChannelTable::get_or_add_slow(uint16_t peer, int32_t key) {
  const uint64_t k = pack(peer, key);
  uint32_t id = find_slow(peer, key);
  if (id == kNone) {
    if ((channels_.size() + 1) * 2 > slot_keys_.size()) grow();
    id = static_cast<uint32_t>(channels_.size());
    channels_.push_back(Channel{peer, key, -1, 0, 0, 0, false, 0});
    const size_t mask = slot_keys_.size() - 1;
    size_t s = slot_of(k, mask);
    while (slot_ids_[s] != 0) s = (s + 1) & mask;
    slot_keys_[s] = k;
    slot_ids_[s] = id + 1;
    if (dense(peer, key)) {
      if (dense_at(peer, key) == kNoBlock) {
        if (peer >= block_of_.size()) block_of_.resize(size_t{peer} + 1, kNone);
        block_of_[peer] = static_cast<uint32_t>(dense_.size() / kDenseKeys);
        dense_.resize(dense_.size() + kDenseKeys, kNone);
      }
      dense_[dense_at(peer, key)] = id;
    }
  }
  last_key_ = k;
  last_id_ = id;
  return id;
}

std::vector<uint32_t> ChannelTable::build_index(std::span<Record> records, bool consume) {
  uint32_t total = 0;
  for (auto& c : channels_) {
    c.begin = total;
    total += c.count;
  }
  index_.clear();
  index_.reserve(total);
  prefault(index_.data(), index_.capacity() * sizeof(uint32_t));
  index_.assign(total, kNone);
  std::vector<uint32_t> fill(channels_.size());
  for (uint32_t i = 0; i < records.size(); ++i) {
    const uint32_t c = records[i].message;
    if (c == kNone) continue;
    index_[channels_[c].begin + fill[c]++] = i;
    if (consume) records[i].message = kNone;
  }
  std::vector<uint32_t> repeated;
  auto by_opnum = [&](uint32_t a, uint32_t b) { return records[a].opnum < records[b].opnum; };
  for (uint32_t c = 0; c < channels_.size(); ++c) {
    auto first = index_.begin() + channels_[c].begin;
    auto last = first + channels_[c].count;
    if (first != last) channels_[c].first_opnum = records[*first].opnum;
    if (channels_[c].known_sorted) continue;
    // File order is opnum order in a well-formed capture: sort only when it is not.
    if (!std::is_sorted(first, last, by_opnum)) std::stable_sort(first, last, by_opnum);
    if (first != last) channels_[c].first_opnum = records[*first].opnum;
    for (auto it = first; it != last && it + 1 != last; ++it) {
      if (records[*it].opnum == records[*(it + 1)].opnum && !records[*(it + 1)].is_duplicate()) {
        repeated.push_back(*(it + 1));
      }
    }
  }
  return repeated;
}

uint32_t ChannelTable::lookup(uint32_t id, int32_t opnum,
                              std::span<const Record> records) const noexcept {
  const auto idx = records_of(id);
  if (idx.empty()) return kNone;
  // Opnums of a channel are contiguous in a well-formed capture: try the direct position.
  // A hit there is the first record with that opnum (a repeat before it would shift it).
  const int64_t guess = static_cast<int64_t>(opnum) - channels_[id].first_opnum;
  if (guess >= 0 && guess < static_cast<int64_t>(idx.size()) &&
      records[idx[static_cast<size_t>(guess)]].opnum == opnum) {
    return idx[static_cast<size_t>(guess)];
  }
  auto it = std::lower_bound(idx.begin(), idx.end(), opnum,
                             [&](uint32_t r, int32_t v) { return records[r].opnum < v; });
  if (it == idx.end() || records[*it].opnum != opnum) return kNone;
  return *it;
}

void ChannelTable::release() noexcept {
  std::vector<uint32_t>().swap(index_);
  std::vector<uint32_t>().swap(dense_);
  std::vector<uint32_t>().swap(block_of_);
  std::vector<uint32_t>().swap(setup_);
  std::vector<Channel>().swap(channels_);
  std::vector<uint64_t>().swap(slot_keys_);
  std::vector<uint32_t>().swap(slot_ids_);
  last_key_ = ~uint64_t{0};
  last_id_ = kNone;
}

size_t ChannelTable::memory_bytes() const noexcept {
  return index_.capacity() * 4 + setup_.capacity() * 4 + channels_.capacity() * sizeof(Channel) +
         slot_keys_.capacity() * 8 + slot_ids_.capacity() * 4 + dense_.capacity() * 4 +
         block_of_.capacity() * 4;
}

}  // namespace dlcnet::trace
