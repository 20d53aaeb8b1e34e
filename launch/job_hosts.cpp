// Which ranks share this rank's host (the same boot id, from the join's host identities).
#include <algorithm>

#include "launch/job.hpp"

namespace dlcnet {

int Job::ranks_on_this_host() const noexcept {
  const auto& me = hosts_[static_cast<size_t>(cfg_.rank)];
  return static_cast<int>(std::count_if(hosts_.begin(), hosts_.end(), [&](const HostIdentity& h) {
    return h.boot_id == me.boot_id;
  }));
}

int Job::slot_on_this_host() const noexcept {
  const auto& me = hosts_[static_cast<size_t>(cfg_.rank)];
  return static_cast<int>(
      std::count_if(hosts_.begin(), hosts_.begin() + cfg_.rank,
                    [&](const HostIdentity& h) { return h.boot_id == me.boot_id; }));
}

}  // namespace dlcnet
