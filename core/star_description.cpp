#include "core/star_description.hpp"

#include <fstream>
#include <regex>
#include <sstream>

namespace dlcnet {

std::string star_prefix_of(const std::string& netns) {
  static const std::regex name("([A-Za-z0-9_][A-Za-z0-9_-]*)-(sw|h(0|[1-9][0-9]*))");
  std::smatch m;
  if (!std::regex_match(netns, m, name)) return {};
  return m[1].str();
}

nlohmann::json read_star_description(const std::string& netns, const std::string& dir) {
  const std::string prefix = star_prefix_of(netns);
  if (prefix.empty()) return nullptr;
  const std::string path = dir + "/" + prefix + ".json";
  std::ifstream f(path);
  if (!f) return nullptr;
  std::ostringstream text;
  text << f.rdbuf();
  nlohmann::json d = nlohmann::json::parse(text.str(), nullptr, false);
  if (d.is_discarded() || !d.is_object()) return {{"error", path + ": not a JSON object"}};
  d["file"] = path;
  return d;
}

}  // namespace dlcnet
