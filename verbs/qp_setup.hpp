// RC queue pair creation and the RESET -> INIT -> RTR -> RTS transitions of the out-of-band
// path (the rdma_cm path shares the creation attributes and inline negotiation).
#pragma once

#include <infiniband/verbs.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>

#include "verbs/gid.hpp"
#include "verbs/handles.hpp"

namespace dlcnet::verbs {

// 4.096 us * 2^14 = 67 ms before a retransmission; finite, or a dead peer hangs the sender.
inline constexpr uint8_t kAckTimeout = 14;
// rxe treats 7 as "retry for ever" (rxe_comp.c); 6 makes a dead peer an IBV_WC_RETRY_EXC_ERR.
inline constexpr uint8_t kRetryCount = 6;
// 7 = retry for ever on RNR: a receiver late in posting buffers is not an error.
inline constexpr uint8_t kRnrRetry = 7;
// 12 = 0.64 ms between RNR retries (IB spec table), what rc_pingpong and perftest use.
inline constexpr uint8_t kMinRnrTimer = 12;
// Hops a RoCE v2 packet may take; GRH on every QP, so IB and RoCE share one path.
inline constexpr uint8_t kHopLimit = 64;

ibv_qp_init_attr rc_qp_init_attr(ibv_cq* cq, uint32_t send_depth, uint32_t recv_depth,
                                 uint32_t inline_size);

// Calls create(attr), which returns 0 or an errno value, halving the inline size while the
// provider refuses it (capabilities are negotiated: some NICs cap inline data lower than
// asked). Returns the inline size granted, capped at the one asked for; throws Error naming
// `device` and `call` when even no inline data is refused.
template <typename Create>
uint32_t create_negotiating_inline(ibv_qp_init_attr attr, const char* device, const char* call,
                                   Create&& create) {
  const uint32_t wanted = attr.cap.max_inline_data;
  for (;;) {
    ibv_qp_init_attr tried = attr;
    const int err = create(tried);
    if (err == 0) return std::min(wanted, tried.cap.max_inline_data);
    const bool maybe_inline = err == EINVAL || err == ENOMEM || err == EOPNOTSUPP;
    if (!maybe_inline || attr.cap.max_inline_data == 0) {
      throw_verbs_error(device,
                        std::string(call) + "(RC, send_wr=" + std::to_string(attr.cap.max_send_wr) +
                            ", recv_wr=" + std::to_string(attr.cap.max_recv_wr) +
                            ", inline=" + std::to_string(attr.cap.max_inline_data) + ")",
                        err);
    }
    attr.cap.max_inline_data = attr.cap.max_inline_data > 32 ? attr.cap.max_inline_data / 2 : 0;
  }
}

// Creates the QP; `inline_granted` receives the inline size the provider granted.
Qp create_rc_qp(ibv_pd* pd, const ibv_qp_init_attr& attr, uint32_t& inline_granted);

struct RtrParams {
  uint8_t port = 1;
  int sgid_index = 0;
  ibv_mtu path_mtu = IBV_MTU_1024;
  uint32_t dest_qpn = 0;
  uint32_t rq_psn = 0;
  GidBytes dgid{};
  uint16_t dlid = 0;
  uint8_t max_dest_rd_atomic = 1;
  uint8_t traffic_class = 0;  // GRH traffic class (-T)
  uint8_t sl = 0;             // service level (-S)
};

void qp_to_init(ibv_qp* qp, uint8_t port);
void qp_to_rtr(ibv_qp* qp, const RtrParams& p);
void qp_to_rts(ibv_qp* qp, uint32_t sq_psn, uint8_t max_rd_atomic);

// What the QP actually runs with (describe() reports it rather than what was asked for).
struct QpSettings {
  uint32_t path_mtu = 0;  // bytes
  uint8_t timeout = 0;
  uint8_t retry_cnt = 0;
  uint8_t rnr_retry = 0;
  uint8_t max_rd_atomic = 0;
  uint8_t max_dest_rd_atomic = 0;
  uint32_t max_inline_data = 0;
  uint32_t qpn = 0;
  uint32_t dest_qpn = 0;
  uint8_t traffic_class = 0;
  uint8_t sl = 0;
};
QpSettings query_qp_settings(ibv_qp* qp);

}  // namespace dlcnet::verbs
