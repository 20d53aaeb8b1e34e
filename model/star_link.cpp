#include "model/star_link.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/star_ports.hpp"
#include "core/tc_units.hpp"

namespace dlcnet::model {

std::optional<StarLink> star_link_of(const nlohmann::json& report, const std::string& file) {
  if (!report.is_object() || !report.contains("context")) return std::nullopt;
  const nlohmann::json& ctx = report["context"];
  if (!ctx.is_object() || !ctx.contains("star") || ctx["star"].is_null()) return std::nullopt;
  const std::string where = file + ": context.star";
  const nlohmann::json& star = ctx["star"];
  if (!star.is_object() || star.contains("error")) {
    throw Error(where + ": not a readable star description");
  }
  const nlohmann::json* rate = nullptr;
  if (star.contains("tbf") && star["tbf"].is_object() && star["tbf"].contains("rate")) {
    rate = &star["tbf"]["rate"];
  }
  if (!rate || !rate->is_string()) throw Error(where + ".tbf.rate: missing or not a string");
  StarLink s;
  s.rate_text = rate->get<std::string>();
  s.rate_Bps = tc_rate_Bps(s.rate_text, where + ".tbf.rate");
  const nlohmann::json& tbf = star["tbf"];
  if (!tbf.contains("burst") || !tbf["burst"].is_string())
    throw Error(where + ".tbf.burst: missing or not a string");
  s.bucket_bytes = tc_size_bytes(tbf["burst"].get<std::string>(), where + ".tbf.burst");
  const std::string itfs = file + ": context.tcp_stack.interfaces";
  const nlohmann::json* list = nullptr;
  if (ctx.contains("tcp_stack") && ctx["tcp_stack"].is_object() &&
      ctx["tcp_stack"].contains("interfaces")) {
    list = &ctx["tcp_stack"]["interfaces"];
  }
  if (!list || !list->is_array()) throw Error(itfs + ": missing: the MTU the star's frames had");
  for (size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& itf = (*list)[i];
    if (!itf.is_object() || !itf.contains("mtu") || !itf["mtu"].is_number_unsigned()) continue;
    const uint64_t mtu = itf["mtu"].get<uint64_t>();
    if (mtu < 576 || mtu > 65535) {
      throw Error(itfs + "[" + std::to_string(i) + "].mtu = " + std::to_string(mtu) +
                  ": from 576 to 65535 expected");
    }
    s.mtu = s.mtu == 0 ? uint32_t(mtu) : std::min(s.mtu, uint32_t(mtu));
  }
  if (s.mtu == 0) throw Error(itfs + ": no interface with an MTU");
  s.payload_bytes = s.mtu - kStarIpTcpHeaders;
  s.header_bytes = kStarIpTcpHeaders + kStarEthernetBytes;
  return s;
}

}  // namespace dlcnet::model
