#include "core/units.hpp"

#include <cctype>
#include <charconv>
#include <limits>

#include "core/error.hpp"

namespace dlcnet {

uint64_t parse_size(std::string_view text, std::string_view what) {
  auto fail = [&](const char* why) -> uint64_t {
    throw Error(std::string(what) + ": '" + std::string(text) + "' " + why +
                " (expected a number of bytes such as 64, 4K, 1M or 2G)");
  };
  uint64_t value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc::result_out_of_range) return fail("is too large");
  if (ec != std::errc() || p == begin) return fail("is not a size");
  std::string suffix(p, end);
  for (auto& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  unsigned shift = 0;
  if (suffix.empty() || suffix == "B") {
    shift = 0;
  } else if (suffix == "K" || suffix == "KB" || suffix == "KIB") {
    shift = 10;
  } else if (suffix == "M" || suffix == "MB" || suffix == "MIB") {
    shift = 20;
  } else if (suffix == "G" || suffix == "GB" || suffix == "GIB") {
    shift = 30;
  } else {
    return fail("has an unknown unit suffix");
  }
  if (shift && value > (std::numeric_limits<uint64_t>::max() >> shift)) return fail("is too large");
  return value << shift;
}

std::string format_size(uint64_t bytes) {
  static const char* const kUnits[] = {"", "K", "M", "G"};
  int u = 0;
  while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(bytes) + kUnits[u];
}

}  // namespace dlcnet
