// A wait for one rank that ran out of time, and the rank it waited for.
#pragma once

#include <exception>
#include <string>

#include "core/error.hpp"

namespace dlcnet {

// A wait for one rank (`peer`) that ran out of time: nothing came from it, or it took nothing.
// A failing job follows these waits from rank to rank to the one that stopped (a frozen
// process keeps its connections open: only the waits can tell), see Bootstrap::settle_failure.
class StallError : public TimeoutError {
 public:
  StallError(const std::string& what, int peer) : TimeoutError(what), peer_(peer) {}
  int peer() const noexcept { return peer_; }

 private:
  int peer_;
};

// The rank `e` waited for when it ran out of time (a StallError's peer), else -1.
inline int stalled_on(const std::exception& e) noexcept {
  const auto* stall = dynamic_cast<const StallError*>(&e);
  return stall != nullptr ? stall->peer() : -1;
}

}  // namespace dlcnet
