#include "core/star_ports.hpp"

#include "core/error.hpp"
#include "core/json_fields.hpp"

namespace dlcnet {

StarPorts star_ports_from_json(const nlohmann::json& star, const std::string& where) {
  StarPorts p;
  const std::string ports = json_text(star, "ports", where);
  if (ports == "fifo") {
    p.sharing = StarSharing::fifo;
  } else if (ports == "fair between hosts") {
    p.sharing = StarSharing::fair_hosts;
  } else if (ports == "fair between TCP flows") {
    p.sharing = StarSharing::fair_flows;
  } else {
    throw Error(where + ".ports: '" + ports +
                "': 'fifo', 'fair between hosts' or 'fair between TCP flows'");
  }
  const std::string shaped = json_text(star, "shaped_ports", where);
  if (shaped != "p0" && shaped != "all") {
    throw Error(where + ".shaped_ports: '" + shaped + "': p0 or all");
  }
  p.all_shaped = shaped == "all";
  return p;
}

}  // namespace dlcnet
