#include "core/memlock.hpp"

#include <sys/resource.h>

#include <fstream>

namespace dlcnet {
namespace {

constexpr int kCapIpcLock = 14;  // linux/capability.h

bool has_cap_ipc_lock() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("CapEff:", 0) != 0) continue;
    try {
      return (std::stoull(line.substr(7), nullptr, 16) >> kCapIpcLock) & 1;
    } catch (const std::exception&) {
      return false;
    }
  }
  return false;
}

}  // namespace

std::string memlock_limit_text() {
  rlimit lim{};
  if (getrlimit(RLIMIT_MEMLOCK, &lim) != 0) return "unknown";
  if (lim.rlim_cur == RLIM_INFINITY) return "unlimited";
  const auto kib = static_cast<unsigned long long>(lim.rlim_cur) / 1024;
  return kib >= 1024 ? std::to_string(kib / 1024) + " MiB" : std::to_string(kib) + " KiB";
}

uint64_t memlock_pinnable_bytes() {
  rlimit lim{};
  if (getrlimit(RLIMIT_MEMLOCK, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return UINT64_MAX;
  return has_cap_ipc_lock() ? UINT64_MAX : static_cast<uint64_t>(lim.rlim_cur);
}

std::string memlock_fix_text() {
  return "raise ulimit -l (locked-memory limit is " + memlock_limit_text() +
         "; `ulimit -l unlimited`, or memlock in /etc/security/limits.conf for a login, "
         "LimitMEMLOCK= for a systemd unit)";
}

}  // namespace dlcnet
