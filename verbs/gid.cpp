#include "verbs/gid.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

namespace dlcnet::verbs {

std::string gid_to_string(const GidBytes& gid) {
  char text[INET6_ADDRSTRLEN];
  if (inet_ntop(AF_INET6, gid.data(), text, sizeof text) == nullptr) return "?";
  return text;
}

std::optional<GidBytes> parse_gid(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  if (text.empty() || text.size() >= INET6_ADDRSTRLEN) return std::nullopt;
  const std::string copy(text);
  GidBytes gid{};
  if (inet_pton(AF_INET6, copy.c_str(), gid.data()) != 1) return std::nullopt;
  return gid;
}

bool gid_is_zero(const GidBytes& gid) noexcept {
  return std::all_of(gid.begin(), gid.end(), [](uint8_t b) { return b == 0; });
}

bool gid_is_ipv4_mapped(const GidBytes& gid) noexcept {
  for (int i = 0; i < 10; ++i) {
    if (gid[i] != 0) return false;
  }
  return gid[10] == 0xff && gid[11] == 0xff;
}

std::optional<uint32_t> gid_ipv4_be(const GidBytes& gid) noexcept {
  if (!gid_is_ipv4_mapped(gid)) return std::nullopt;
  uint32_t addr = 0;
  std::memcpy(&addr, gid.data() + 12, sizeof addr);
  return addr;
}

}  // namespace dlcnet::verbs
