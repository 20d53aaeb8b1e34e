// Send-queue accounting for one RC queue pair. Pure and header-only: unit-tested without a
// device, and inlined into the datapath.
//
// Every work request gets a sequence number. RC completes a QP's requests in order, so the
// completion of request s proves that every earlier one (signaled or not) has left the send
// queue: outstanding = posted - (s + 1). Posting beyond `depth` outstanding would overflow
// the SQ (ibv_post_send fails with ENOMEM) and, worse, the CQ sized for it (rxe drops send
// completions silently on a full CQ), so the transport answers Status::busy instead.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>

namespace dlcnet::verbs {

class SqCredits {
 public:
  SqCredits() = default;
  explicit SqCredits(uint32_t depth) noexcept
      : depth_(std::max<uint32_t>(depth, 1)),
        max_unsignaled_run_(std::max<uint32_t>(depth / 2, 1)) {}

  bool full() const noexcept { return posted_ - retired_ >= depth_; }
  uint64_t outstanding() const noexcept { return posted_ - retired_; }
  uint64_t next_seq() const noexcept { return posted_; }
  uint64_t retired() const noexcept { return retired_; }
  uint32_t depth() const noexcept { return depth_; }

  // The caller's request, or forced: the caller is meant to signal one in every depth/2
  // requests, and one who does not would fill the queue with requests nothing ever retires
  // and see busy for ever. A forced completion is retired silently (not reported).
  bool must_signal(bool requested) const noexcept {
    return requested || unsignaled_run_ + 1 >= max_unsignaled_run_;
  }

  void on_posted(bool signaled) noexcept {
    assert(!full());
    ++posted_;
    unsignaled_run_ = signaled ? 0 : unsignaled_run_ + 1;
  }

  // Request `seq` completed (successfully or not). Error completions also arrive for
  // unsignaled requests, still in order, so this never moves backwards.
  void on_completed(uint64_t seq) noexcept {
    assert(seq < posted_);
    retired_ = std::max(retired_, seq + 1);
  }

  // Completions carry only the low `bits` of a sequence number (the rest of wr_id names the
  // peer). The full number is the one in the window [retired, posted) with those bits.
  uint64_t widen(uint64_t low_bits, unsigned bits) const noexcept {
    const uint64_t mask = (uint64_t{1} << bits) - 1;
    return retired_ + ((low_bits - retired_) & mask);
  }

 private:
  uint32_t depth_ = 1;
  uint32_t max_unsignaled_run_ = 1;
  uint32_t unsignaled_run_ = 0;
  uint64_t posted_ = 0;
  uint64_t retired_ = 0;
};

// Receive queue: every receive completes, so it is a plain count.
class RqCredits {
 public:
  RqCredits() = default;
  explicit RqCredits(uint32_t depth) noexcept : depth_(std::max<uint32_t>(depth, 1)) {}
  bool full() const noexcept { return posted_ - done_ >= depth_; }
  uint64_t outstanding() const noexcept { return posted_ - done_; }
  uint64_t next_seq() const noexcept { return posted_; }
  void on_posted() noexcept { ++posted_; }
  void on_completed(uint64_t seq) noexcept { done_ = std::max(done_, seq + 1); }
  uint64_t widen(uint64_t low_bits, unsigned bits) const noexcept {
    const uint64_t mask = (uint64_t{1} << bits) - 1;
    return done_ + ((low_bits - done_) & mask);
  }

 private:
  uint32_t depth_ = 1;
  uint64_t posted_ = 0;
  uint64_t done_ = 0;
};

// Power of two >= n, for slot tables indexed by sequence number & (size - 1).
constexpr uint32_t slot_table_size(uint32_t n) noexcept {
  uint32_t size = 1;
  while (size < n) size <<= 1;
  return size;
}

}  // namespace dlcnet::verbs
