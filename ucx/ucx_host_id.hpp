// Whether two ranks can share memory: one kernel (boot id) and the same network, mount, IPC and
// PID namespaces. Ranks of one host in different network namespaces (the namespace star) are
// not "one host" here: their traffic must cross the fabric between them, not /dev/shm.
#pragma once

#include <string>

namespace dlcnet::ucx {

// This process's identity in that sense: "" when /proc cannot tell (never equal to a peer's).
std::string shared_memory_domain();

// Whether UCX_TLS (the effective list) lets UCX use a shared-memory transport.
bool allows_shared_memory(const std::string& tls);

}  // namespace dlcnet::ucx
