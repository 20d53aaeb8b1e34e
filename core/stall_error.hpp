// A wait for other ranks that ran out of time, and the ranks it waited for.
#pragma once

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace dlcnet {

// A wait for other ranks (`peers`) that ran out of time: nothing came from them, or they took
// nothing. A failing job follows these waits from rank to rank to the one that stopped (a
// frozen process keeps its connections open: only the waits can tell), see
// Bootstrap::settle_failure.
class StallError : public TimeoutError {
 public:
  StallError(const std::string& what, std::vector<int> peers)
      : TimeoutError(what), peers_(std::move(peers)) {}
  const std::vector<int>& peers() const noexcept { return peers_; }

 private:
  std::vector<int> peers_;
};

// The ranks `e` waited for when it ran out of time (a StallError's peers), else none.
inline std::vector<int> stalled_on(const std::exception& e) {
  const auto* stall = dynamic_cast<const StallError*>(&e);
  return stall != nullptr ? stall->peers() : std::vector<int>();
}

}  // namespace dlcnet
