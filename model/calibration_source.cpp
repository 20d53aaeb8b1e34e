#include "model/calibration_source.hpp"

#include <set>
#include <string>

namespace dlcnet::model {
namespace {

// j[a][b]... when every step exists, else null.
const nlohmann::json& at_path(const nlohmann::json& j, std::initializer_list<const char*> path) {
  static const nlohmann::json none;
  const nlohmann::json* p = &j;
  for (const char* k : path) {
    if (!p->is_object() || !p->contains(k)) return none;
    p = &(*p)[k];
  }
  return *p;
}

// "tcp on lo", "posix, sysv on memory": the UCX lanes of every endpoint, once each.
nlohmann::json lanes_of(const nlohmann::json& transport) {
  std::set<std::string> seen;
  nlohmann::json out = nlohmann::json::array();
  const nlohmann::json& eps = at_path(transport, {"endpoints"});
  if (!eps.is_array()) return out;
  for (const nlohmann::json& e : eps) {
    const nlohmann::json& lanes = at_path(e, {"lanes"});
    if (!lanes.is_array()) continue;
    for (const nlohmann::json& l : lanes) {
      const nlohmann::json& t = at_path(l, {"transport"});
      const nlohmann::json& d = at_path(l, {"device"});
      if (!t.is_string()) continue;
      const std::string s =
          t.get<std::string>() + (d.is_string() ? " on " + d.get<std::string>() : "");
      if (seen.insert(s).second) out.push_back(s);
    }
  }
  return out;
}

}  // namespace

nlohmann::json calibration_source(const std::vector<BenchReport>& reports) {
  nlohmann::json out = nlohmann::json::array();
  for (const BenchReport& r : reports) {
    const nlohmann::json& doc = *r.doc;
    const nlohmann::json& ctx = at_path(doc, {"context"});
    nlohmann::json s = {{"file", r.file}};
    auto copy = [&](const char* key, const nlohmann::json& v) {
      if (!v.is_null()) s[key] = v;
    };
    copy("test", at_path(doc, {"test", "kind"}));
    copy("host", at_path(ctx, {"host"}));
    copy("transport", at_path(ctx, {"transport", "transport"}));
    const nlohmann::json lanes = lanes_of(at_path(ctx, {"transport"}));
    if (!lanes.empty()) s["lanes"] = lanes;
    copy("congestion_control", at_path(ctx, {"tcp_stack", "congestion_control"}));
    copy("netns", at_path(ctx, {"tcp_stack", "netns", "name"}));
    copy("star", at_path(ctx, {"star"}));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace dlcnet::model
