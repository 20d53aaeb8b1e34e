#include "patterns/p2p/bench_header.hpp"

#include <cstdio>
#include <sstream>

namespace dlcnet::bench {
namespace {

constexpr const char* kRule =
    "---------------------------------------------------------------------------------------\n";

std::string text(const nlohmann::json& j, const char* key, const char* suffix = "") {
  if (!j.contains(key) || j[key].is_null()) return "?";
  const nlohmann::json& v = j[key];
  return (v.is_string() ? v.get<std::string>() : v.dump()) + suffix;
}

std::string hex_qpn(const nlohmann::json& qp, const char* key) {
  if (!qp.contains(key) || !qp[key].is_number_integer() || qp[key].get<int64_t>() < 0) return "?";
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%04llx",
                static_cast<unsigned long long>(qp[key].get<int64_t>()));
  return buf;
}

// " Name           : value          " -- two such cells to a line, as perftest prints them.
void cell(std::ostringstream& out, const char* name, const std::string& value, bool last) {
  char buf[96];
  std::snprintf(buf, sizeof buf, last ? " %-15s: %s\n" : " %-15s: %-16s", name, value.c_str());
  out << buf;
}

}  // namespace

std::string verbs_header(const nlohmann::json& d) {
  const nlohmann::json qp = d.value("qp", nlohmann::json::object());
  std::ostringstream out;
  out << kRule;
  cell(out, "Device", text(d, "device"), false);
  cell(out, "Connection", "RC, " + text(d, "connection"), true);
  cell(out, "Link type", text(d, "link_layer"), false);
  cell(out, "Number of qps", text(d, "peers"), true);
  cell(out, "TX depth", text(d, "send_depth"), false);
  cell(out, "Mtu", text(qp, "path_mtu", "[B]"), true);
  cell(out, "GID index", text(d, "gid_index"), false);
  cell(out, "Max inline data", text(d, "inline_size", "[B]"), true);
  cell(out, "Traffic class", text(qp, "traffic_class"), false);
  cell(out, "Service level", text(qp, "sl"), true);
  out << " local address : QPN " << hex_qpn(qp, "qpn") << " GID " << text(d, "gid") << '\n';
  out << " remote address: QPN " << hex_qpn(qp, "dest_qpn") << '\n';
  out << kRule;
  return out.str();
}

}  // namespace dlcnet::bench
