// VerbsTransport::describe(): what carries the traffic, for the JSON run context. Reports
// what the device and the QPs actually run with, not what was asked for.
#include <nlohmann/json.hpp>

#include "verbs/mtu.hpp"
#include "verbs/verbs_transport_impl.hpp"

namespace dlcnet::verbs {

nlohmann::json VerbsTransport::describe() const {
  nlohmann::json j;
  j["transport"] = "verbs";
  j["device"] = dev_;
  j["ib_port"] = port_.port;
  j["gid_index"] = port_.gid_index;
  j["gid"] = gid_to_string(port_.gid);
  j["gid_type"] = gid_type_name(port_.gid_type);
  j["link_layer"] = link_layer_name(port_.attr.link_layer);
  j["active_mtu"] = mtu_to_bytes(port_.attr.active_mtu);
  j["max_msg_sz"] = max_msg_;
  j["fw_ver"] = dev_attr_.fw_ver;
  j["hw_ver"] = dev_attr_.hw_ver;
  j["vendor_id"] = dev_attr_.vendor_id;
  j["vendor_part_id"] = dev_attr_.vendor_part_id;
  j["connection"] = opts_.rdma_cm ? "rdma-cm" : "oob-tcp";
  j["send_depth"] = opts_.send_depth;
  j["recv_depth"] = opts_.recv_depth;
  j["inline_size"] = connected_ ? inline_granted_ : opts_.inline_size;
  j["inline_requested"] = opts_.inline_size;
  // What -m, -T and -S asked for (null: the device's choice); "qp" says what the QP runs with.
  j["requested"] = {
      {"path_mtu", opts_.path_mtu ? nlohmann::json(opts_.path_mtu) : nlohmann::json()},
      {"traffic_class",
       opts_.traffic_class >= 0 ? nlohmann::json(opts_.traffic_class) : nlohmann::json()},
      {"sl", opts_.service_level >= 0 ? nlohmann::json(opts_.service_level) : nlohmann::json()}};
  j["cq_entries"] = cq_entries_;
  j["peers"] = peers_.size();
  if (connected_ && !peers_.empty()) {
    j["qp"] = {{"path_mtu", qp_settings_.path_mtu},
               {"timeout", qp_settings_.timeout},
               {"retry_cnt", qp_settings_.retry_cnt},
               {"rnr_retry", qp_settings_.rnr_retry},
               {"max_rd_atomic", qp_settings_.max_rd_atomic},
               {"max_dest_rd_atomic", qp_settings_.max_dest_rd_atomic},
               {"qpn", qp_settings_.qpn},
               {"dest_qpn", qp_settings_.dest_qpn},
               {"traffic_class", qp_settings_.traffic_class},
               {"sl", qp_settings_.sl}};
  }
  return j;
}

}  // namespace dlcnet::verbs
