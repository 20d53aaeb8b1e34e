#include "core/tcp_stack.hpp"

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/route_metrics.hpp"

namespace dlcnet {
namespace {

constexpr const char* kIpv4 = "/proc/sys/net/ipv4/";
constexpr const char* kNetnsDir = "/run/netns";

// The sysctl's text, or nullopt-like "" when it cannot be read.
std::string read_sysctl(const std::string& name) {
  std::ifstream f(kIpv4 + name);
  std::string text;
  if (!f || !std::getline(f, text)) return {};
  return text;
}

// A whitespace-separated list of integers ("4096\t131072\t6291456") as an array; null if any
// word is not one.
nlohmann::json integers(const std::string& text) {
  if (text.empty()) return nullptr;
  std::istringstream in(text);
  nlohmann::json out = nlohmann::json::array();
  long long v = 0;
  while (in >> v) out.push_back(v);
  if (!in.eof() || out.empty()) return nullptr;
  return out;
}

nlohmann::json text_or_null(const std::string& text) {
  if (text.empty()) return nullptr;
  return text;
}

// Every interface but lo with its MTU (SIOCGIFMTU on a socket of this namespace).
nlohmann::json interfaces() {
  nlohmann::json out = nlohmann::json::array();
  struct if_nameindex* all = if_nameindex();
  if (all == nullptr) return nullptr;
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  for (struct if_nameindex* i = all; fd >= 0 && i->if_index != 0; ++i) {
    if (std::string(i->if_name) == "lo") continue;
    ifreq r{};
    std::snprintf(r.ifr_name, sizeof r.ifr_name, "%s", i->if_name);
    nlohmann::json mtu = nullptr;
    if (ioctl(fd, SIOCGIFMTU, &r) == 0) mtu = r.ifr_mtu;
    out.push_back(nlohmann::json{{"name", i->if_name}, {"mtu", mtu}});
  }
  if (fd >= 0) close(fd);
  if_freenameindex(all);
  return out;
}

}  // namespace

std::string own_netns_name() {
  struct stat mine {};
  if (stat("/proc/self/ns/net", &mine) != 0) return {};
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(kNetnsDir, ec)) {
    struct stat s {};
    if (stat(e.path().c_str(), &s) == 0 && s.st_ino == mine.st_ino && s.st_dev == mine.st_dev) {
      return e.path().filename().string();
    }
  }
  return {};
}

nlohmann::json read_tcp_stack() {
  nlohmann::json s;
  struct stat ns {};
  const std::string name = own_netns_name();
  s["netns"] = {{"inode", stat("/proc/self/ns/net", &ns) == 0 ? nlohmann::json(ns.st_ino)
                                                              : nlohmann::json(nullptr)},
                {"name", text_or_null(name)}};
  s["congestion_control"] = text_or_null(read_sysctl("tcp_congestion_control"));
  s["tcp_rmem"] = integers(read_sysctl("tcp_rmem"));
  s["tcp_wmem"] = integers(read_sysctl("tcp_wmem"));
  const nlohmann::json idle = integers(read_sysctl("tcp_slow_start_after_idle"));
  s["tcp_slow_start_after_idle"] = idle.is_array() ? idle[0] : nlohmann::json(nullptr);
  s["interfaces"] = interfaces();
  s["routes"] = read_ipv4_routes();
  return s;
}

Bytes tcp_stack_bytes(const nlohmann::json& stack) {
  const std::string text = stack.dump();
  return Bytes(text.begin(), text.end());
}

nlohmann::json tcp_stack_of(std::span<const uint8_t> bytes) {
  nlohmann::json s = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (s.is_discarded() || !s.is_object()) return nullptr;
  return s;
}

}  // namespace dlcnet
