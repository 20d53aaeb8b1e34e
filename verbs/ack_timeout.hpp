// The RC ACK timeout exponent every queue pair gets (4.096 us * 2^N before a retransmission).
#pragma once

#include <cstdint>

namespace dlcnet::verbs {

// kAckTimeout, or DLCNET_VERBS_ACK_TIMEOUT (1..31) when set: emulated Soft-RoCE (TCG guests)
// can hold packets longer than 67 ms in a queue or a stalled vCPU, and rxe's go-back-N
// retransmissions then pile up until its responder rejects a request (seen: 883 duplicate
// requests, then "local QP operation error" on a 4-worker fan-in); 18 (1.07 s) avoids that.
// Throws Error when the variable is set but not a whole number in 1..31.
uint8_t ack_timeout();

}  // namespace dlcnet::verbs
