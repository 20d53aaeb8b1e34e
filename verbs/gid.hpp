// GIDs as text and as IPv4 addresses. Pure functions: no device needed, unit-tested.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlcnet::verbs {

using GidBytes = std::array<uint8_t, 16>;

// IPv6 text, compressed ("::ffff:198.18.0.1", "fe80::1").
std::string gid_to_string(const GidBytes& gid);

// Accepts IPv6 text, including the uncompressed form sysfs prints
// ("0000:0000:0000:0000:0000:ffff:c612:0001"); trailing whitespace is ignored.
std::optional<GidBytes> parse_gid(std::string_view text);

bool gid_is_zero(const GidBytes& gid) noexcept;

// RoCE v2 GIDs of IPv4 addresses are IPv4-mapped IPv6 addresses (::ffff:a.b.c.d).
bool gid_is_ipv4_mapped(const GidBytes& gid) noexcept;

// The IPv4 address of an IPv4-mapped GID in network byte order, as in sockaddr_in::sin_addr.
std::optional<uint32_t> gid_ipv4_be(const GidBytes& gid) noexcept;

}  // namespace dlcnet::verbs
