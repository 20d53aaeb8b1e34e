// The namespace star a process runs in (scripts/netns-star.sh): its description, which `up`
// writes to /run/dlcnet-star/P.json, found from the name of the process's own network
// namespace (P-h<i> or P-sw). Every tool's JSON context quotes it as "star".
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace dlcnet {

// Where netns-star.sh keeps its state and descriptions.
inline constexpr const char* kStarStateDir = "/run/dlcnet-star";

// The star's prefix of a namespace named as netns-star.sh names them ("P-h3" -> "P", "P-sw"
// -> "P"), or "" for any other name.
std::string star_prefix_of(const std::string& netns);

// The description of the star namespace `netns` belongs to, or null when it is not one (or
// no description exists). A description that cannot be read or parsed is {"error": why}:
// the run is not lost for it. Never throws.
nlohmann::json read_star_description(const std::string& netns,
                                     const std::string& dir = kStarStateDir);

}  // namespace dlcnet
