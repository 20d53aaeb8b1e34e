// The locked-memory limit (ulimit -l, RLIMIT_MEMLOCK) that RDMA memory registration runs into:
// verbs names it when ibv_reg_mr fails; UCX, which registers pools of its own and can loop for
// ever when it cannot, is warned about before it starts.
#pragma once

#include <cstdint>
#include <string>

namespace dlcnet {

// "64 KiB", "8 MiB", "unlimited" or "unknown": the soft limit in force.
std::string memlock_limit_text();

// The bytes this process may pin: UINT64_MAX when the limit is unlimited or it holds
// CAP_IPC_LOCK in its effective set (root normally does; a container or setpriv may drop it).
uint64_t memlock_pinnable_bytes();
inline bool memlock_unbounded() {
  return memlock_pinnable_bytes() == UINT64_MAX;
}

// The sentence a user needs when registration may fail for the limit: the limit and the fix.
std::string memlock_fix_text();

}  // namespace dlcnet
