#include "launch/agreement_fields.hpp"

#include <map>

namespace dlcnet {
namespace {

// "OPTION VALUE" lines into OPTION -> VALUE.
std::map<std::string, std::string> field_map(std::string_view text) {
  std::map<std::string, std::string> m;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    const size_t space = line.find(' ');
    m[std::string(line.substr(0, space))] =
        space == std::string_view::npos ? std::string() : std::string(line.substr(space + 1));
    at = end + 1;
  }
  return m;
}

}  // namespace

// " (-n: 5 on rank 2, 10 here; ...)", or "" when no field differs.
std::string field_differences(std::string_view mine, std::string_view theirs, int rank) {
  const auto a = field_map(mine), b = field_map(theirs);
  std::string out;
  for (const auto& [name, value] : a) {
    const auto it = b.find(name);
    const std::string there = it == b.end() ? "(not given)" : it->second;
    if (there == value) continue;
    out += (out.empty() ? " (" : "; ") + name + ": " + there + " on rank " + std::to_string(rank) +
           ", " + value + " here";
  }
  return out.empty() ? out : out + ")";
}

}  // namespace dlcnet
