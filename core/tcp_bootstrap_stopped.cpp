// Which rank stopped without leaving, from the waits of the failing ranks (settle_failure).
#include <optional>

#include "core/tcp_bootstrap_impl.hpp"

namespace dlcnet {

Stopped stopped_rank(int from, const std::vector<FailureReport>& reports, int root_waited_on,
                     int size) {
  // The rank `r` waited for (-1: it failed for another reason), nothing when it sent no report.
  const auto wait_of = [&](int r) -> std::optional<int> {
    if (r == 0) return root_waited_on;
    for (const FailureReport& rep : reports)
      if (rep.rank == r) return rep.waited_on;
    return std::nullopt;
  };
  std::vector<char> seen(static_cast<size_t>(size), 0);
  for (int cur = from;;) {
    if (cur < 0 || cur >= size) return {};
    seen[static_cast<size_t>(cur)] = 1;
    const std::optional<int> target = wait_of(cur);
    if (!target || *target < 0 || *target >= size || seen[static_cast<size_t>(*target)]) return {};
    if (!wait_of(*target)) return {*target, cur};
    cur = *target;
  }
}

}  // namespace dlcnet
