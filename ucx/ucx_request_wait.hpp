// Waiting for a UCP request during set-up and teardown (connect()'s handshake, closing the
// endpoints), when ranks of a large job share the CPUs: progress, and nap once quiet.
#pragma once

#include <chrono>
#include <cstdint>

#include <ucp/api/ucp.h>

namespace dlcnet::ucx {

// Progresses `w` until `request` completes or `deadline` passes; returns its status
// (UCS_INPROGRESS at the deadline). Naps once nothing happened for a while (nap_when_quiet,
// measured from `last_event_ns`, which it moves on at every event, so a caller waiting for
// several requests passes the same one): no peer then waits for this rank's progress longer
// than one nap (up to kSetupNapMaxNs), and the ranks whose messages are under way get the CPUs.
ucs_status_t wait_request(ucp_worker_h w, void* request,
                          std::chrono::steady_clock::time_point deadline, int64_t& last_event_ns);

}  // namespace dlcnet::ucx
