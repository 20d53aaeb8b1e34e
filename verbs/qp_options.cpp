#include "verbs/qp_options.hpp"

#include "core/error.hpp"
#include "verbs/mtu.hpp"

namespace dlcnet::verbs {

void check_qp_options(const TransportOptions& opts, const std::string& device, uint8_t port,
                      const ibv_port_attr& attr) {
  if (opts.path_mtu != 0) {
    const auto mtu = mtu_from_bytes(opts.path_mtu);
    if (!mtu) {
      throw Error("-m " + std::to_string(opts.path_mtu) +
                  ": not an IB MTU (256, 512, 1024, 2048 or 4096)");
    }
    if (*mtu > attr.active_mtu) {
      throw Error("-m " + std::to_string(opts.path_mtu) + ": " + device + " port " +
                  std::to_string(port) + " runs an active MTU of " +
                  std::to_string(mtu_to_bytes(attr.active_mtu)) +
                  " (for RoCE: the interface's MTU less the headers); ask for at most that");
    }
  }
  if (opts.traffic_class > 255) throw Error("-T: traffic class must be 0..255");
  if (opts.service_level > 15) throw Error("-S: service level must be 0..15");
  if (!opts.rdma_cm) return;
  const char* flag = opts.path_mtu != 0        ? "-m"
                     : opts.traffic_class >= 0 ? "-T/--tclass"
                     : opts.service_level >= 0 ? "-S"
                                               : nullptr;
  if (flag) {
    throw Error(std::string(flag) + " with -R/--rdma-cm: librdmacm sets the path MTU, traffic " +
                "class and service level from the route it resolves, and dlcnet does not " +
                "override them; connect without -R to set them");
  }
}

void check_qp_took(const TransportOptions& opts, const std::string& device, const QpSettings& qp) {
  auto refuse = [&](const std::string& flag, int asked, int got, const std::string& why) {
    throw Error(flag + " " + std::to_string(asked) + ": " + device +
                " accepted it but its QP reports " + std::to_string(got) + why);
  };
  if (opts.traffic_class >= 0 && qp.traffic_class != opts.traffic_class) {
    refuse("-T", opts.traffic_class, qp.traffic_class, ": the driver does not keep it");
  }
  if (opts.service_level >= 0 && qp.sl != opts.service_level) {
    refuse("-S", opts.service_level, qp.sl,
           ": the driver does not keep a service level (Soft-RoCE has none); on RoCE the "
           "priority follows the traffic class's DSCP: use -T");
  }
}

ibv_mtu offered_mtu(const TransportOptions& opts, const ibv_port_attr& attr) {
  if (opts.path_mtu == 0) return attr.active_mtu;
  return mtu_from_bytes(opts.path_mtu).value_or(attr.active_mtu);
}

}  // namespace dlcnet::verbs
