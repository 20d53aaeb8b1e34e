// Every wait in dlcnet has a deadline; this is the one type that carries it.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "core/clock.hpp"

namespace dlcnet {

class Deadline {
 public:
  static Deadline after(std::chrono::milliseconds ms) {
    return Deadline(now_ns() + ms.count() * 1'000'000);
  }
  bool expired() const noexcept { return now_ns() >= at_ns_; }
  // Milliseconds left, rounded up, never negative; for poll().
  int remaining_ms() const noexcept {
    int64_t left = at_ns_ - now_ns();
    return left <= 0 ? 0
                     : static_cast<int>(std::min<int64_t>((left + 999'999) / 1'000'000, 1 << 30));
  }
  Deadline earlier(Deadline other) const noexcept {
    return Deadline(std::min(at_ns_, other.at_ns_));
  }

 private:
  explicit Deadline(int64_t at) : at_ns_(at) {}
  int64_t at_ns_;
};

}  // namespace dlcnet
