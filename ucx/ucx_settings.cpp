#include "ucx/ucx_settings.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include <net/if.h>

#include "core/memlock.hpp"
#include "ucx/ucx_error.hpp"
#include "ucx/ucx_handles.hpp"

namespace dlcnet::ucx {
namespace {

// Any of these in the environment means the user chose a retry count; respect it.
constexpr const char* kRetryCountVariables[] = {
    "UCX_RC_VERBS_RETRY_COUNT",
    "UCX_RC_MLX5_RETRY_COUNT",
    "UCX_RC_RETRY_COUNT",
};

std::vector<std::string> sorted_items(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  std::sort(items.begin(), items.end());
  return items;
}

std::string value_of(const std::string& printed, const std::string& key) {
  std::stringstream in(printed);
  const std::string prefix = key + "=";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  return "all";  // UCX's default for both settings
}

std::string one_mismatch(const char* name, const std::string& mine, const std::string& peer,
                         int peer_rank) {
  if (sorted_items(mine) == sorted_items(peer)) return {};
  return "rank " + std::to_string(peer_rank) + " uses " + name + "=" + peer + ", this rank uses " +
         name + "=" + mine + ": set the same on every rank";
}

std::vector<std::string> rdma_devices() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/sys/class/infiniband", ec))
    out.push_back(e.path().filename().string());
  return out;
}

// Whether NET_DEVICES admits one of this host's RDMA devices ("mlx5_0:1" names mlx5_0).
bool admits_rdma_device(const Selection& s) {
  std::vector<std::string> devices = rdma_devices();
  if (devices.empty()) return false;
  if (s.net_devices == "all") return true;
  for (const std::string& item : sorted_items(s.net_devices)) {
    std::string name = item.substr(0, item.find(':'));
    if (std::find(devices.begin(), devices.end(), name) != devices.end()) return true;
  }
  return false;
}

// Whether a transport list admits one of `names` ("rc_verbs:aux" is still rc_verbs; a
// negation "^..." leaves them all in).
bool tls_admits(const std::string& tls, std::initializer_list<const char*> names) {
  for (std::string item : sorted_items(tls)) {
    item = item.substr(0, item.find(':'));
    if (!item.empty() && item[0] == '^') return true;
    for (const char* n : names)
      if (item == n) return true;
  }
  return false;
}

// Whether UCX may open an RC-family interface: a transport list that admits one, and an RDMA
// device that NET_DEVICES admits. Names that admit rc_verbs or rc_mlx5 (dc_mlx5 reads its
// settings under "DC_").
bool may_use_rc(const Selection& s) {
  return tls_admits(s.tls, {"all", "ib", "rc", "rc_v", "rc_x", "rc_verbs", "rc_mlx5"}) &&
         admits_rdma_device(s);
}

}  // namespace

bool may_use_rdma(const Selection& s) {
  return tls_admits(s.tls, {"all", "ib", "rc", "rc_v", "rc_x", "rc_verbs", "rc_mlx5", "ud", "ud_v",
                            "ud_x", "ud_verbs", "ud_mlx5", "dc", "dc_x", "dc_mlx5"}) &&
         admits_rdma_device(s);
}

std::string memlock_warning(const Selection& s, uint64_t pinnable_bytes) {
  if (pinnable_bytes >= kMemlockEnoughForUcx || !may_use_rdma(s)) return {};
  return "ucx: UCX may use an RDMA device here (UCX_TLS=" + s.tls +
         ", UCX_NET_DEVICES=" + s.net_devices +
         ") and pins buffers of its own on it: if it stalls or fails registering them, " +
         memlock_fix_text() +
         " (UCX asks for unlimited), or keep UCX off RDMA with --ucx-tls tcp,sm";
}

void apply_options(ucp_config_t* config, const TransportOptions& opts) {
  if (!opts.ucx_tls.empty())
    check(ucp_config_modify(config, "TLS", opts.ucx_tls.c_str()), "ucp_config_modify",
          "TLS=" + opts.ucx_tls);
  if (!opts.device.empty())
    check(ucp_config_modify(config, "NET_DEVICES", opts.device.c_str()), "ucp_config_modify",
          "NET_DEVICES=" + opts.device);
}

bool apply_finite_rc_retry(ucp_config_t* config, const Selection& selection) {
  for (const char* var : kRetryCountVariables)
    if (std::getenv(var) != nullptr) return false;
  if (!may_use_rc(selection)) return false;
  // Not a UCP setting: UCP keeps it and applies it to every transport interface that takes
  // it. The name is relative to the interface's own table, in which rc_verbs and rc_mlx5
  // embed the common RC settings under "RC_" (checked against UCX 1.13 on rxe0: "RETRY_COUNT"
  // and "RC_VERBS_RETRY_COUNT" are refused there, and UCX then warns the setting went unused).
  check(ucp_config_modify(config, "RC_RETRY_COUNT", kFiniteRcRetryCount), "ucp_config_modify",
        std::string("RC_RETRY_COUNT=") + kFiniteRcRetryCount);
  return true;
}

Selection effective_selection(const ucp_config_t* config) {
  std::string printed = capture_output(
      [&](FILE* f) { ucp_config_print(config, f, nullptr, UCS_CONFIG_PRINT_CONFIG); });
  return {value_of(printed, "UCX_TLS"), value_of(printed, "UCX_NET_DEVICES")};
}

std::string selection_mismatch(const Selection& mine, const Selection& peer, int peer_rank) {
  std::string tls = one_mismatch("UCX_TLS", mine.tls, peer.tls, peer_rank);
  std::string dev = one_mismatch("UCX_NET_DEVICES", mine.net_devices, peer.net_devices, peer_rank);
  if (!tls.empty() && !dev.empty()) return tls + "; " + dev;
  return tls.empty() ? dev : tls;
}

bool tls_allows(const std::string& tls, std::initializer_list<const char*> names) {
  size_t start = 0;
  while (start <= tls.size()) {
    const size_t end = std::min(tls.find(',', start), tls.size());
    std::string item = tls.substr(start, end - start);
    item = item.substr(0, item.find(':'));
    if (!item.empty() && item[0] == '^') return true;
    for (const char* n : names) {
      if (item == n) return true;
    }
    start = end + 1;
  }
  return false;
}

std::vector<std::string> unknown_net_devices(const std::string& devices) {
  std::vector<std::string> unknown;
  std::stringstream in(devices);
  std::string item;
  while (std::getline(in, item, ',')) {
    const std::string name = item.substr(0, item.find(':'));
    if (name.empty() || name == "all" || name[0] == '^') continue;
    const bool net = ::if_nametoindex(name.c_str()) != 0;
    const bool rdma = std::filesystem::exists("/sys/class/infiniband/" + name);
    if (!net && !rdma) unknown.push_back(item);
  }
  return unknown;
}

}  // namespace dlcnet::ucx
