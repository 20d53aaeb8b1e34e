#include "model/predict_report.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace dlcnet::model {

Network network_for(const NetworkRequest& r, std::span<const HpccFlow> flows,
                    const std::string& flows_file, const Calibration& c) {
  uint32_t needed = 0;
  for (const HpccFlow& f : flows) needed = std::max({needed, f.src + 1, f.dst + 1});
  if (r.hosts != 0 && r.hosts < needed) {
    throw Error("--hosts " + std::to_string(r.hosts) + ": " + flows_file + " names host " +
                std::to_string(needed - 1));
  }
  Network n = uniform_network(std::max({r.hosts, needed, 1u}), c);
  n.connections = r.sharing == "connection";
  if (r.port_host >= 0) {
    n.port = BottleneckPort{static_cast<uint32_t>(r.port_host),
                            r.port_rate_Bps > 0 ? r.port_rate_Bps : c.link_rate_Bps,
                            r.port_buffer_bytes};
  }
  return n;
}

nlohmann::json predict_report(nlohmann::json context, const Calibration& c, size_t flows,
                              const std::string& sharing, const Network& net, const Prediction& p,
                              const std::string& fct_file) {
  nlohmann::json doc;
  doc["context"] = std::move(context);
  doc["calibration"] = to_json(c);
  doc["flows"] = flows;
  doc["sharing"] = sharing;
  doc["hosts"] = net.hosts();
  doc["begin_s"] = p.begin_s;
  doc["end_s"] = p.end_s;
  doc["events"] = p.events;
  doc["solves"] = p.solves;
  nlohmann::json links = nlohmann::json::array();
  for (const LinkUse& l : p.links) {
    links.push_back({{"link", l.name},
                     {"rate_Bps", l.rate_Bps},
                     {"bytes", l.bytes},
                     {"utilisation", l.utilisation}});
  }
  doc["links"] = links;
  if (net.port) doc["queue_max_bytes"] = p.queue_max_bytes;
  doc["files"] = {{"fct", fct_file}};
  return doc;
}

}  // namespace dlcnet::model
