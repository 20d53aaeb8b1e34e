#include "ucx/ucx_lanes.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "ucx/ucx_handles.hpp"

namespace dlcnet::ucx {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == '#' || std::isspace(static_cast<unsigned char>(s.front()))))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// "1:tcp/lo.0" -> transport "tcp", device "lo" (the trailing ".0" is UCX's path index; only
// the last dot-number goes, so a VLAN device "eth0.100" would keep its name).
bool parse_resource(const std::string& token, Lane& lane) {
  size_t colon = token.find(':');
  size_t slash = token.find('/', colon == std::string::npos ? 0 : colon + 1);
  if (colon == std::string::npos || slash == std::string::npos) return false;
  lane.transport = token.substr(colon + 1, slash - colon - 1);
  std::string dev = token.substr(slash + 1);
  size_t dot = dev.rfind('.');
  if (dot != std::string::npos && dot + 1 < dev.size() &&
      std::all_of(dev.begin() + static_cast<std::ptrdiff_t>(dot) + 1, dev.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    dev.resize(dot);
  lane.device = dev;
  return !lane.transport.empty();
}

bool parse_lane(std::string_view line, Lane& lane) {
  if (line.rfind("lane[", 0) != 0) return false;
  size_t close = line.find("]:");
  if (close == std::string_view::npos) return false;
  try {
    lane.index = std::stoi(std::string(line.substr(5, close - 5)));
  } catch (const std::exception&) {
    return false;
  }
  std::vector<std::string> w = words(line.substr(close + 2));
  // w: "1:tcp/lo.0" "md[1]" ["->" "md[1]/tcp/sysdev[255]"] uses...
  if (w.empty() || !parse_resource(w[0], lane)) return false;
  auto arrow = std::find(w.begin(), w.end(), "->");
  auto first_use =
      arrow == w.end() ? std::min(w.begin() + 2, w.end()) : std::min(arrow + 2, w.end());
  lane.uses.assign(first_use, w.end());
  return true;
}

}  // namespace

std::vector<std::string> EndpointInfo::transports() const {
  std::vector<std::string> out;
  for (const Lane& l : lanes)
    if (std::find(out.begin(), out.end(), l.transport) == out.end()) out.push_back(l.transport);
  return out;
}

EndpointInfo parse_endpoint_info(std::string_view text) {
  EndpointInfo info;
  std::istringstream in{std::string(text)};
  for (std::string raw; std::getline(in, raw);) {
    std::string_view line = trim(raw);
    Lane lane;
    if (parse_lane(line, lane)) {
      info.lanes.push_back(std::move(lane));
      continue;
    }
    size_t colon = line.find(": ");
    if (colon == std::string_view::npos) continue;
    std::string_view key = line.substr(0, colon);
    if (key.empty() || key == "peer" || key.find(' ') != std::string_view::npos) continue;
    info.protocols.emplace_back(std::string(key), std::string(trim(line.substr(colon + 1))));
  }
  return info;
}

EndpointInfo query_endpoint(ucp_ep_h ep) {
  return parse_endpoint_info(capture_output([&](FILE* f) { ucp_ep_print_info(ep, f); }));
}

nlohmann::json to_json(const EndpointInfo& info) {
  nlohmann::json lanes = nlohmann::json::array();
  for (const Lane& l : info.lanes)
    lanes.push_back(
        {{"lane", l.index}, {"transport", l.transport}, {"device", l.device}, {"uses", l.uses}});
  nlohmann::json protocols = nlohmann::json::object();
  for (const auto& [k, v] : info.protocols) protocols[k] = v;
  return {{"transports", info.transports()}, {"lanes", lanes}, {"protocols", protocols}};
}

}  // namespace dlcnet::ucx
