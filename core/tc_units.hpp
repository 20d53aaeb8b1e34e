// tc(8)'s units, as the namespace star's description quotes them (scripts/netns-star.sh:
// `tbf rate 100mbit burst 32kb limit 8mb`): rates in bits/s ("100mbit", "1gbit", "12500kbps",
// a bare number of bits/s) and sizes in bytes ("32kb" = 32 KiB, "8mb" = 8 MiB, "1500", "8kbit").
#pragma once

#include <string>

namespace dlcnet {

// Bytes per second; throws Error naming `field` on a value tc would not take.
double tc_rate_Bps(const std::string& text, const std::string& field);

// Bytes; throws Error naming `field` on a value tc would not take.
double tc_size_bytes(const std::string& text, const std::string& field);

}  // namespace dlcnet
