// perftest's console header for a verbs run (device, link, MTU, TX depth, GID index, inline
// size, traffic class, service level, the QPNs), from what the transport reports it runs with.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace dlcnet::bench {

// `describe`: VerbsTransport::describe() after connect(). Missing fields print as "?".
std::string verbs_header(const nlohmann::json& describe);

}  // namespace dlcnet::bench
