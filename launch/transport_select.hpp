// --transport auto|verbs|ucx: opens the transport a run asked for, or for auto, verbs when an
// RDMA device is active and UCX otherwise. The choice and its reason go on stderr and in JSON.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/transport.hpp"

namespace dlcnet {

struct TransportChoice {
  std::unique_ptr<Transport> transport;
  std::string requested;  // "auto", "verbs" or "ucx"
  std::string chosen;     // "verbs" or "ucx"
  std::string reason;
  nlohmann::json to_json() const;
};

// Throws Error for an unknown name or when the transport cannot be opened.
TransportChoice open_transport(const std::string& requested, const TransportOptions& opts);

// Adds the versions of the transport libraries linked into this tool to a report context
// (core/run_context.hpp, which stays free of them): "ucx_version". libibverbs' version is
// core's (a compile definition), "libibverbs_version".
void add_transport_versions(nlohmann::json& context);

}  // namespace dlcnet
