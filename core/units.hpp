// Sizes as users type them ("64", "4K", "1M", "2G": binary multiples, like perftest).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dlcnet {

// Throws Error naming `what` (e.g. "-s") and the text on anything that is not a whole number
// with an optional K/M/G suffix (case-insensitive, optional trailing B/iB), or that overflows.
uint64_t parse_size(std::string_view text, std::string_view what);

// 65536 -> "64K", 100 -> "100".
std::string format_size(uint64_t bytes);

}  // namespace dlcnet
