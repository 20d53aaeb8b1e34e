// Preallocated bookkeeping for in-flight operations and their completions, so the datapath
// never allocates: every operation in flight, and every completion not yet handed out, holds
// one credit of its peer's depth, so the number of slots and of queued completions is bounded
// by the sum of all depths, known at connect(). (An operation UCX completes in place and that
// reports nothing needs neither: see UcxTransport::track.) Both are sized for that bound but
// touch only as much memory as they hold at their busiest (LazyArray): a rank of 256 connected
// to every other would otherwise zero 163 840 slots and as many completions at connect().
#pragma once

#include <cassert>
#include <cstdint>
#include <span>

#include "core/lazy_array.hpp"
#include "core/transport.hpp"

namespace dlcnet::ucx {

class UcxTransport;

// The user_data of one UCX request.
struct OpSlot {
  UcxTransport* owner = nullptr;
  void* request = nullptr;  // the UCX request while in flight (for cancellation at shutdown)
  uint64_t wr_id = 0;
  uint64_t bytes = 0;
  int peer = -1;
  Op op = Op::send;
  bool signaled = false;
  bool in_use = false;
  uint32_t next_free = 0;
};

class OpSlots {
 public:
  OpSlots() = default;
  OpSlots(UcxTransport* owner, uint32_t count) : slots_(count), owner_(owner) {}
  // Callers hold a credit, so a slot is always free: the latest given back, else one never
  // used before.
  OpSlot& take() noexcept {
    assert(in_use_ < slots_.size());
    OpSlot* s;
    if (free_ != kNone) {
      s = &slots_[free_];
      free_ = s->next_free;
    } else {
      s = &slots_.construct(made_++);
      s->owner = owner_;
    }
    s->in_use = true;
    s->request = nullptr;
    ++in_use_;
    return *s;
  }
  void give(OpSlot& s) noexcept {
    assert(s.in_use && in_use_ > 0);
    --in_use_;
    s.in_use = false;
    s.request = nullptr;
    s.next_free = free_;
    free_ = static_cast<uint32_t>(&s - slots_.data());
  }
  // Slots taken and not given back: operations in flight.
  size_t in_use() const noexcept { return in_use_; }
  // Every slot ever taken (in flight or free again).
  std::span<OpSlot> all() noexcept { return {slots_.data(), made_}; }
  std::span<const OpSlot> all() const noexcept { return {slots_.data(), made_}; }

 private:
  static constexpr uint32_t kNone = ~uint32_t{0};
  LazyArray<OpSlot> slots_;
  UcxTransport* owner_ = nullptr;
  uint32_t free_ = kNone;
  uint32_t made_ = 0;
  size_t in_use_ = 0;
};

// Fixed-capacity FIFO of completions the callbacks produced and poll() has not handed out. It
// starts again at the front whenever poll() empties it, so it touches the memory of the most
// completions it held at once, not of its capacity.
class CompletionRing {
 public:
  CompletionRing() = default;
  explicit CompletionRing(size_t capacity) : buf_(capacity) {}
  bool empty() const noexcept { return count_ == 0; }
  const Completion* data() const noexcept { return buf_.data(); }  // the whole buffer
  void push(const Completion& c) noexcept {
    assert(count_ < buf_.size());
    size_t i = head_ + count_;  // no division on the datapath: i < 2 * size
    if (i >= buf_.size()) i -= buf_.size();
    buf_.construct(i, c);
    ++count_;
  }
  Completion pop() noexcept {
    assert(count_ > 0);
    Completion c = buf_[head_];
    --count_;
    if (++head_ == buf_.size() || count_ == 0) head_ = 0;
    return c;
  }

 private:
  LazyArray<Completion> buf_;
  size_t head_ = 0;
  size_t count_ = 0;
};

}  // namespace dlcnet::ucx
