// The TCP stack a process measures with, as the kernel shows it in the process's own network
// namespace: what every tool's JSON context records (core/run_context.hpp, "tcp_stack"), so
// that a result says which congestion control, buffers and window it was taken with.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "core/bytes.hpp"

namespace dlcnet {

// {"netns": {"inode", "name"}, "congestion_control", "tcp_rmem": [min, default, max],
//  "tcp_wmem": [...], "tcp_slow_start_after_idle", "interfaces": [{"name", "mtu"}],
//  "routes": [core/route_metrics.hpp]}: from /proc/sys/net/ipv4 and the namespace's
// interfaces (lo left out) and IPv4 routes. A value the kernel does not show (no such file, a
// sandbox) is null; reading never throws.
nlohmann::json read_tcp_stack();

// A stack as it travels between ranks (its compact JSON), and back: null when `bytes` is not
// a JSON object.
Bytes tcp_stack_bytes(const nlohmann::json& stack);
nlohmann::json tcp_stack_of(std::span<const uint8_t> bytes);

// The name `ip netns add` gave this process's network namespace (the entry of /run/netns that
// is the same namespace), or "" when it has none (the host's, or a container's).
std::string own_netns_name();

}  // namespace dlcnet
