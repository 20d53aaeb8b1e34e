#include "model/star_network.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/json_file.hpp"

namespace dlcnet::model {

Network star_network(uint32_t hosts, const Calibration& c, const StarPorts& ports) {
  Network n = uniform_network(hosts, c);
  const double veth = std::max(kStarVethRateBps, c.link_rate_Bps);
  for (uint32_t h = 0; h < hosts; ++h) {
    n.up_Bps[h] = veth;
    if (!n.up_bucket_bytes.empty()) n.up_bucket_bytes[h] = 0;
    if (ports.shaped(h)) continue;
    n.down_Bps[h] = veth;
    if (!n.down_bucket_bytes.empty()) n.down_bucket_bytes[h] = 0;
  }
  return n;
}

Network star_network_from_run(const nlohmann::json& doc, const std::string& file, uint32_t hosts,
                              const Calibration& c) {
  const std::string where = file + ": context";
  if (!doc.is_object() || !doc.contains("context")) {
    throw Error(where + ": missing: not a dlcnet tool's JSON report");
  }
  const nlohmann::json& ctx = doc["context"];
  if (!ctx.is_object() || !ctx.contains("star") || ctx["star"].is_null()) {
    throw Error(where +
                ".star: missing: the run did not run on a namespace star (scripts/netns-star.sh)");
  }
  const nlohmann::json& star = ctx["star"];
  if (!star.is_object()) throw Error(where + ".star: not an object");
  if (star.contains("error")) throw Error(where + ".star: unreadable description");
  const StarPorts ports = star_ports_from_json(star, where + ".star");
  if (star.contains("hosts")) {
    const nlohmann::json& list = star["hosts"];
    if (!list.is_array()) throw Error(where + ".star.hosts: not an array");
    if (list.size() < hosts) {
      throw Error(where + ".star.hosts: " + std::to_string(list.size()) + " hosts, the job has " +
                  std::to_string(hosts) + " ranks");
    }
  }
  return star_network(hosts, c, ports);
}

Network read_star_network(const std::string& path, uint32_t hosts, const Calibration& c) {
  const nlohmann::json doc = read_json_file(path, "the run's JSON report");
  return interpret_json(path, [&] { return star_network_from_run(doc, path, hosts, c); });
}

}  // namespace dlcnet::model
