// What UCX actually chose for an endpoint: transport and device per lane. UCX 1.13 has no
// ucp_ep_query field for it (UCP_EP_ATTR_FIELD_TRANSPORTS came later), so the lanes are read
// from ucp_ep_print_info()'s text.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ucp/api/ucp.h>
#include <nlohmann/json.hpp>

namespace dlcnet::ucx {

struct Lane {
  int index = -1;
  std::string transport;          // "tcp", "rc_verbs", "posix", ...
  std::string device;             // "lo", "rxe0:1", "memory", ...
  std::vector<std::string> uses;  // what UCX uses the lane for: "am", "rma_bw#0", "wireup", ...
};

struct EndpointInfo {
  std::vector<Lane> lanes;
  // Protocol lines such as {"tag_send", "0..<egr/short>..8185..<egr/zcopy>..(inf)"}.
  std::vector<std::pair<std::string, std::string>> protocols;
  // Distinct lane transports in lane order: the short answer to "which transport carried it".
  std::vector<std::string> transports() const;
};

// Parses ucp_ep_print_info() output (UCX 1.13 format:
// "#   lane[0]:  1:tcp/lo.0 md[1]   -> md[1]/tcp/sysdev[255] am am_bw#0 keepalive wireup").
// Lines it does not recognise are skipped, never an error: the text is informational.
EndpointInfo parse_endpoint_info(std::string_view text);

EndpointInfo query_endpoint(ucp_ep_h ep);

nlohmann::json to_json(const EndpointInfo& info);

}  // namespace dlcnet::ucx
