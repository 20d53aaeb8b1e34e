// Which rank stopped without leaving, from the waits of the failing ranks (settle_failure).
#include <deque>
#include <optional>

#include "core/tcp_bootstrap_impl.hpp"

namespace dlcnet {

Stopped stopped_rank(int from, const std::vector<FailureReport>& reports,
                     const std::vector<int>& root_waited_on, int size) {
  // The ranks `r` waited for (none: it failed for another reason), nothing when it sent no
  // report.
  const auto waits_of = [&](int r) -> std::optional<std::vector<int>> {
    if (r == 0) return root_waited_on;
    for (const FailureReport& rep : reports)
      if (rep.rank == r) return rep.waited_on;
    return std::nullopt;
  };
  if (from < 0 || from >= size) return {};
  std::vector<char> seen(static_cast<size_t>(size), 0);
  seen[static_cast<size_t>(from)] = 1;
  std::deque<int> trail{from};  // ranks whose waits are still to be followed
  while (!trail.empty()) {
    const int waiter = trail.front();
    trail.pop_front();
    for (int r : waits_of(waiter).value_or(std::vector<int>())) {
      if (r < 0 || r >= size || seen[static_cast<size_t>(r)]) continue;
      seen[static_cast<size_t>(r)] = 1;
      if (!waits_of(r)) return {r, waiter};
      trail.push_back(r);
    }
  }
  return {};
}

}  // namespace dlcnet
