#include "verbs/qp_setup.hpp"

#include <algorithm>

#include "verbs/mtu.hpp"
#include "verbs/rc_retry.hpp"

namespace dlcnet::verbs {
namespace {

[[noreturn]] void throw_modify(ibv_qp* qp, const std::string& what, int rc) {
  throw_verbs_error(device_name_of(qp->context),
                    "ibv_modify_qp(qpn=" + std::to_string(qp->qp_num) + ", " + what + ")",
                    returned_errno(rc));
}

}  // namespace

ibv_qp_init_attr rc_qp_init_attr(ibv_cq* cq, uint32_t send_depth, uint32_t recv_depth,
                                 uint32_t inline_size) {
  ibv_qp_init_attr attr{};
  attr.send_cq = cq;
  attr.recv_cq = cq;
  attr.qp_type = IBV_QPT_RC;
  attr.sq_sig_all = 0;  // selective signalling: the datapath chooses per request
  attr.cap.max_send_wr = send_depth;
  attr.cap.max_recv_wr = recv_depth;
  attr.cap.max_send_sge = 1;
  attr.cap.max_recv_sge = 1;
  attr.cap.max_inline_data = inline_size;
  return attr;
}

Qp create_rc_qp(ibv_pd* pd, const ibv_qp_init_attr& attr, uint32_t& inline_granted) {
  Qp qp;
  inline_granted = create_negotiating_inline(attr, device_name_of(pd->context), "ibv_create_qp",
                                             [&](ibv_qp_init_attr& a) {
                                               errno = 0;
                                               qp = Qp(ibv_create_qp(pd, &a));
                                               return qp ? 0 : last_errno();
                                             });
  return qp;
}

void qp_to_init(ibv_qp* qp, uint8_t port) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_INIT;
  attr.pkey_index = 0;
  attr.port_num = port;
  attr.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
  const int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
  if (int rc = ibv_modify_qp(qp, &attr, mask); rc != 0) {
    throw_modify(qp, "INIT, port=" + std::to_string(port), rc);
  }
}

void qp_to_rtr(ibv_qp* qp, const RtrParams& p) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_RTR;
  attr.path_mtu = p.path_mtu;
  attr.dest_qp_num = p.dest_qpn;
  attr.rq_psn = p.rq_psn;
  attr.max_dest_rd_atomic = p.max_dest_rd_atomic;
  attr.min_rnr_timer = kMinRnrTimer;
  attr.ah_attr.is_global = 1;
  attr.ah_attr.dlid = p.dlid;
  attr.ah_attr.port_num = p.port;
  std::copy(p.dgid.begin(), p.dgid.end(), attr.ah_attr.grh.dgid.raw);
  attr.ah_attr.grh.sgid_index = static_cast<uint8_t>(p.sgid_index);
  attr.ah_attr.grh.hop_limit = kHopLimit;
  attr.ah_attr.grh.traffic_class = p.traffic_class;
  attr.ah_attr.sl = p.sl;
  const int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
  if (int rc = ibv_modify_qp(qp, &attr, mask); rc != 0) {
    throw_modify(
        qp,
        "RTR, dest_qpn=" + std::to_string(p.dest_qpn) +
            ", path_mtu=" + std::to_string(mtu_to_bytes(p.path_mtu)) +
            ", sgid_index=" + std::to_string(p.sgid_index) + ", dgid=" + gid_to_string(p.dgid) +
            ", traffic_class=" + std::to_string(p.traffic_class) + ", sl=" + std::to_string(p.sl),
        rc);
  }
}

void qp_to_rts(ibv_qp* qp, uint32_t sq_psn, uint8_t max_rd_atomic) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_RTS;
  attr.timeout = ack_timeout();
  attr.retry_cnt = retry_count();
  attr.rnr_retry = kRnrRetry;
  attr.sq_psn = sq_psn;
  attr.max_rd_atomic = max_rd_atomic;
  const int mask = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                   IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
  if (int rc = ibv_modify_qp(qp, &attr, mask); rc != 0) {
    throw_modify(qp, "RTS, max_rd_atomic=" + std::to_string(max_rd_atomic), rc);
  }
}

QpSettings query_qp_settings(ibv_qp* qp) {
  ibv_qp_attr attr{};
  ibv_qp_init_attr init{};
  const int mask = IBV_QP_PATH_MTU | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                   IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_CAP | IBV_QP_AV |
                   IBV_QP_DEST_QPN;
  if (int rc = ibv_query_qp(qp, &attr, mask, &init); rc != 0) {
    throw_verbs_error(device_name_of(qp->context),
                      "ibv_query_qp(qpn=" + std::to_string(qp->qp_num) + ")", returned_errno(rc));
  }
  QpSettings s;
  s.path_mtu = mtu_to_bytes(attr.path_mtu);
  s.timeout = attr.timeout;
  s.retry_cnt = attr.retry_cnt;
  s.rnr_retry = attr.rnr_retry;
  s.max_rd_atomic = attr.max_rd_atomic;
  s.max_dest_rd_atomic = attr.max_dest_rd_atomic;
  s.max_inline_data = attr.cap.max_inline_data;
  s.qpn = qp->qp_num;
  s.dest_qpn = attr.dest_qp_num;
  s.traffic_class = attr.ah_attr.grh.traffic_class;
  s.sl = attr.ah_attr.sl;
  return s;
}

}  // namespace dlcnet::verbs
