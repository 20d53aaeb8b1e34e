// A wait for other ranks that ran out of time, and the ranks it waited for.
#pragma once

#include <cstdint>
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

// Another rank's failure (an Error from Bootstrap::check_peers) seen by a wait for `peers` that
// has lasted `waited_ns` of its `limit_ns`. Past half its limit the wait is as good as run out:
// the error is rethrown as a StallError naming those ranks, so that rank 0, told of a rank that
// ran out of time waiting for it a moment sooner, follows its own wait on to the rank that
// stopped (Bootstrap::settle_failure). Otherwise (or with no peers) it is rethrown as it is.
// Call it only from the handler that caught `e`.
[[noreturn]] inline void rethrow_during_wait(const Error& e, const std::string& waiting,
                                             int64_t waited_ns, int64_t limit_ns,
                                             std::vector<int> peers) {
  if (peers.empty() || waited_ns * 2 < limit_ns) throw;
  throw StallError(
      waiting + " for " + std::to_string(waited_ns / 1'000'000) + " ms, when " + e.what(),
      std::move(peers));
}

// Runs `check` (a Bootstrap::check_peers) inside a wait that has lasted `waited_ns` of its
// `limit_ns`: another rank's failure it throws goes through rethrow_during_wait, with what the
// wait awaits from `awaited()` (a pair: the text, the ranks), computed only then; a StallError
// passes as it is.
template <class Check, class Awaited>
void check_peers_during_wait(Check&& check, int64_t waited_ns, int64_t limit_ns,
                             Awaited&& awaited) {
  try {
    check();
  } catch (const StallError&) {
    throw;
  } catch (const Error& e) {
    auto [waiting, peers] = awaited();
    rethrow_during_wait(e, waiting, waited_ns, limit_ns, std::move(peers));
  }
}

}  // namespace dlcnet
