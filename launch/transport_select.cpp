#include "launch/transport_select.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/stall_guard.hpp"
#include "core/stop_budget.hpp"
#include "ucx/ucx_transport.hpp"
#include "verbs/verbs_transport.hpp"

namespace dlcnet {

void add_transport_versions(nlohmann::json& context) {
  context["ucx_version"] = ucx_library_version();
}

nlohmann::json TransportChoice::to_json() const {
  return {{"requested", requested}, {"chosen", chosen}, {"reason", reason}};
}

std::string TransportChoice::device() const {
  if (chosen != "verbs" || !transport) return "";
  return transport->describe().value("device", std::string());
}

void refuse_verbs_only_options(const TransportOptions& opts, const std::string& why_ucx) {
  const char* flag = opts.rdma_cm              ? "-R/--rdma-cm"
                     : opts.inline_given       ? "-I/--inline-size"
                     : opts.path_mtu != 0      ? "-m/--mtu"
                     : opts.traffic_class >= 0 ? "-T/--tclass"
                     : opts.service_level >= 0 ? "-S/--sl"
                                               : nullptr;
  if (!flag) return;
  throw Error(std::string(flag) + " sets a verbs queue pair's attribute, but this run uses UCX (" +
              why_ucx + "), which creates and connects its own endpoints and does not take " +
              "it: drop the flag, or run with --transport verbs");
}

TransportChoice open_transport(const std::string& requested, const TransportOptions& opts) {
  TransportChoice c;
  c.requested = requested;
  if (requested == "verbs") {
    c.chosen = "verbs";
    c.reason = "requested";
  } else if (requested == "ucx") {
    c.chosen = "ucx";
    c.reason = "requested";
  } else if (requested == "auto") {
    std::vector<std::string> devices = active_verbs_devices();
    if (!devices.empty()) {
      c.chosen = "verbs";
      c.reason =
          "RDMA device " + (opts.device.empty() ? devices.front() : opts.device) + " is active";
    } else {
      c.chosen = "ucx";
      c.reason = "no active RDMA device";
    }
  } else {
    throw Error("--transport: '" + requested + "' is not one of auto, verbs, ucx");
  }
  if (c.chosen == "ucx") refuse_verbs_only_options(opts, c.reason);
  // UCX can block for ever inside its worker creation (it retries pools it cannot register);
  // nothing is measured yet, so a stall past the connect timeout ends the process with a reason.
  const StallGuard guard("opening the " + c.chosen + " transport",
                         std::chrono::milliseconds(std::max(opts.connect_timeout_ms, 1000)));
  c.transport = c.chosen == "verbs" ? make_verbs_transport(opts) : make_ucx_transport(opts);
  return c;
}

void apply_timeout(TransportOptions& opts, int timeout_s) {
  const StopBudget b = stop_budget(timeout_s);
  opts.connect_timeout_ms = static_cast<int>(b.wait.count());
  opts.close_limit_ms = static_cast<int>(b.close_limit.count());
}

}  // namespace dlcnet
