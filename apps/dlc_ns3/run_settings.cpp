#include "apps/dlc_ns3/run_settings.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <vector>

#include "core/error.hpp"
#include "core/json_fields.hpp"
#include "core/json_file.hpp"
#include "core/tc_units.hpp"

namespace dlcnet::ns3p {
namespace {

using nlohmann::json;

// The largest of a tcp_rmem/tcp_wmem triple, from the ranks' [min, default, max] or the star's
// "min default max".
uint64_t mem_max(const json& v, const std::string& field) {
  std::vector<uint64_t> values;
  if (v.is_array()) {
    for (const json& x : v) {
      if (!x.is_number_unsigned()) throw Error(field + ": not three byte counts");
      values.push_back(x.get<uint64_t>());
    }
  } else if (v.is_string()) {
    std::istringstream in(v.get<std::string>());
    for (uint64_t x = 0; in >> x;) values.push_back(x);
  }
  if (values.size() != 3 || values[2] == 0) throw Error(field + ": not three byte counts");
  return values[2];
}

// The congestion control every rank measured with (context.tcp_stacks), else the star's.
std::string congestion_control(const json& ctx, const json& star, const std::string& where) {
  std::string cc = json_text(star, "congestion_control", where + ".star");
  if (!ctx.contains("tcp_stacks")) return cc;
  const json& stacks = ctx["tcp_stacks"];
  if (!stacks.is_array()) throw Error(where + ".tcp_stacks: not an array");
  for (size_t i = 0; i < stacks.size(); ++i) {
    const std::string field = where + ".tcp_stacks[" + std::to_string(i) + "]";
    const std::string rank_cc = json_text(stacks[i], "congestion_control", field);
    if (rank_cc != cc) {
      throw Error(field + ".congestion_control: '" + rank_cc + "', the star says '" + cc +
                  "': the ranks did not run the star's congestion control");
    }
  }
  return cc;
}

// The TCP settings of the ranks' stacks where the run recorded them, else the star's: the
// largest buffers and initial window any rank had (one setting for every simulated socket),
// the smallest MTU.
void tcp_settings(const json& ctx, const json& star, const std::string& where, RunSettings& s) {
  const json& stacks = ctx.value("tcp_stacks", json::array());
  const size_t n = stacks.empty() ? 1 : stacks.size();
  s.rmem_max = s.wmem_max = 0;
  std::optional<uint32_t> initcwnd, mtu;
  for (size_t i = 0; i < n; ++i) {
    const json& stack = stacks.empty() ? star : stacks[i];
    const std::string from =
        stacks.empty() ? where + ".star" : where + ".tcp_stacks[" + std::to_string(i) + "]";
    s.rmem_max =
        std::max(s.rmem_max, mem_max(json_member(stack, "tcp_rmem", from), from + ".tcp_rmem"));
    s.wmem_max =
        std::max(s.wmem_max, mem_max(json_member(stack, "tcp_wmem", from), from + ".tcp_wmem"));
    const json none;
    if (stacks.empty() && stack.value("initcwnd", none).is_number_unsigned()) {
      initcwnd = stack["initcwnd"].get<uint32_t>();
    }
    for (const json& route : stack.value("routes", json::array())) {
      if (route.is_object() && route.value("initcwnd", none).is_number_unsigned()) {
        initcwnd = std::max(initcwnd.value_or(0), route["initcwnd"].get<uint32_t>());
      }
    }
    for (const json& itf : stack.value("interfaces", json::array())) {
      if (itf.is_object() && itf.value("mtu", none).is_number_unsigned()) {
        mtu = std::min(mtu.value_or(UINT32_MAX), itf["mtu"].get<uint32_t>());
      }
    }
  }
  s.initcwnd = initcwnd.value_or(10);
  s.mtu = mtu.value_or(1500);
  if (s.initcwnd == 0 || s.mtu < 576 || s.mtu > 65535) {
    throw Error(where + ": initcwnd " + std::to_string(s.initcwnd) + " or MTU " +
                std::to_string(s.mtu) + " out of range");
  }
}

// The smallest rendezvous threshold of the ranks' UCX endpoints: their tag_send protocols,
// "0..<egr/short>..8185..<egr/zcopy>..19522..<rndv>..(inf)" (from 19522 bytes on).
void rendezvous(const json& transport, const std::string& where, RunSettings& s) {
  const json& endpoints = transport.value("endpoints", json::array());
  for (size_t i = 0; i < endpoints.size(); ++i) {
    const json& protocols = endpoints[i].value("protocols", json::object());
    const std::string tag = protocols.value("tag_send", "");
    const size_t at = tag.find("..<rndv>");
    if (at == std::string::npos || at < 2) continue;
    const size_t begin = tag.rfind("..", at - 1);
    if (begin == std::string::npos) continue;
    const std::string number = tag.substr(begin + 2, at - begin - 2);
    char* end = nullptr;
    const uint64_t from = std::strtoull(number.c_str(), &end, 10);
    if (number.empty() || *end != '\0') {
      throw Error(where + ".transport.endpoints[" + std::to_string(i) + "].protocols.tag_send: '" +
                  tag + "': no rendezvous threshold");
    }
    if (s.rendezvous_from == 0 || from < s.rendezvous_from) {
      s.rendezvous_from = from;
      s.rendezvous_field =
          where + ".transport.endpoints[" + std::to_string(i) + "].protocols.tag_send";
    }
  }
}

}  // namespace

RunSettings run_settings_from_json(const json& doc, const std::string& file) {
  const std::string where = file + ": context";
  if (!doc.is_object() || !doc.contains("context")) {
    throw Error(where + ": missing: not a dlcnet tool's JSON report");
  }
  const json& ctx = doc["context"];
  const json& transport = json_member(ctx, "transport", where);
  const std::string kind = transport.is_object() ? transport.value("transport", "") : "";
  if (kind != "ucx") {
    throw Error(where + ".transport.transport: '" + kind +
                "': only UCX over TCP can be mirrored (ns-3 simulates TCP, not RDMA verbs)");
  }
  if (!ctx.contains("star") || ctx["star"].is_null()) {
    throw Error(where +
                ".star: missing: the run did not run on a namespace star "
                "(scripts/netns-star.sh), the only network this predictor mirrors");
  }
  const json& star = ctx["star"];
  if (star.contains("error")) throw Error(where + ".star: unreadable description");
  RunSettings s;
  s.congestion_control = congestion_control(ctx, star, where);
  if (s.congestion_control != "cubic" && s.congestion_control != "reno") {
    throw Error(where + ".star.congestion_control: '" + s.congestion_control +
                "': ns-3 mirrors Linux's cubic and reno only (its BBR is not Linux's)");
  }
  const StarPorts ports = star_ports_from_json(star, where + ".star");
  s.ports = ports.sharing;
  if (!star.value("netem", json()).is_null()) {
    throw Error(where + ".star.netem: set: netem on the links is not simulated");
  }
  s.tbf_on_all_ports = ports.all_shaped;
  const json& tbf = json_member(star, "tbf", where + ".star");
  const std::string t = where + ".star.tbf";
  s.tbf_rate_Bps = tc_rate_Bps(json_text(tbf, "rate", t), t + ".rate");
  s.tbf_burst_bytes = tc_size_bytes(json_text(tbf, "burst", t), t + ".burst");
  s.tbf_limit_bytes = tc_size_bytes(json_text(tbf, "limit", t), t + ".limit");
  tcp_settings(ctx, star, where, s);
  rendezvous(transport, where, s);
  s.connections_field = where + ".transport.connections";
  const std::string connections = transport.value("connections", json("peer")).is_string()
                                      ? transport.value("connections", "peer")
                                      : std::string();
  if (connections != "peer" && connections != "direction") {
    throw Error(s.connections_field + ": 'peer' or 'direction'");
  }
  s.one_connection_per_peer = connections == "peer";
  return s;
}

RunSettings read_run_settings(const std::string& path) {
  const json doc = read_json_file(path, "the run's JSON report");
  return interpret_json(path, [&] { return run_settings_from_json(doc, path); });
}

}  // namespace dlcnet::ns3p
