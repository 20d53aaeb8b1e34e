// The RC retransmission settings every queue pair gets: the ACK timeout (4.096 us * 2^N before
// a retransmission) and the retry count (retransmissions of a request before it fails).
#pragma once

#include <cstdint>

namespace dlcnet::verbs {

// kAckTimeout, or DLCNET_VERBS_ACK_TIMEOUT (1..31) when set: emulated Soft-RoCE (TCG guests)
// can hold packets longer than 67 ms in a queue or a stalled vCPU, and rxe's go-back-N
// retransmissions then pile up until its responder rejects a request (seen: 883 duplicate
// requests, then "local QP operation error" on a 4-worker fan-in); 18 (1.07 s) avoids that.
// Throws Error when the variable is set but not a whole number in 1..31.
uint8_t ack_timeout();

// kRetryCount, or DLCNET_VERBS_RETRY_COUNT (0..7) when set. On a lossy link a request of many
// packets can use up 6 retries (rxe counts each go-back-N restart, sequence NAKs included: a
// 5 % loss failed a LeNet-5 replay's send with "transport retry counter exceeded"); 7 makes
// rxe retry for ever (real RNICs: 7 retries), and a dead peer is then found by the job's
// bootstrap instead of by the QP. Throws Error when set but not a whole number in 0..7.
uint8_t retry_count();

}  // namespace dlcnet::verbs
