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
  // The RDMA device verbs runs on (for --cpu auto); "" for UCX, which picks devices per lane.
  std::string device() const;
};

// Throws Error for an unknown name, when the transport cannot be opened, or when UCX is chosen
// and a verbs-only option is set (refuse_verbs_only_options()).
TransportChoice open_transport(const std::string& requested, const TransportOptions& opts);

// Throws Error naming the first verbs-only option set (rdma_cm, -I, -m, -T, -S) and why UCX
// cannot honour it: UCX makes its own endpoints. `why_ucx`: how UCX came to be chosen.
void refuse_verbs_only_options(const TransportOptions& opts, const std::string& why_ucx);

// The transport's own waits from the run's --timeout (core/stop_budget.hpp): connecting gives
// up after its wait limit, and closing the connections at the end (to a peer that may have
// stopped) takes at most its close limit.
void apply_timeout(TransportOptions& opts, int timeout_s);

// Adds the versions of the transport libraries linked into this tool to a report context
// (core/run_context.hpp, which stays free of them): "ucx_version". libibverbs' version is
// core's (a compile definition), "libibverbs_version".
void add_transport_versions(nlohmann::json& context);

}  // namespace dlcnet
