// The IPv4 routes of the calling process's network namespace with the metrics TCP starts a
// connection from (`ip route ... initcwnd N initrwnd N mtu N`), read over rtnetlink: part of
// the TCP stack every report records (core/tcp_stack.hpp). Raw netlink, so that the core
// library needs no netlink library.
#pragma once

#include <nlohmann/json.hpp>

namespace dlcnet {

// [{"dst": "10.230.0.0/24", "dev": "h0", "initcwnd", "initrwnd", "mtu"}] for the main
// table's unicast routes; a metric the route does not set is null (the kernel's default:
// initcwnd 10 segments, the device's MTU). null when the dump fails or takes over 1 s; never
// throws.
nlohmann::json read_ipv4_routes();

}  // namespace dlcnet
