#include "ucx/ucx_request_wait.hpp"

#include "core/clock.hpp"
#include "core/idle.hpp"

namespace dlcnet::ucx {

ucs_status_t wait_request(ucp_worker_h w, void* request,
                          std::chrono::steady_clock::time_point deadline, int64_t& last_event_ns) {
  ucs_status_t s;
  while ((s = ucp_request_check_status(request)) == UCS_INPROGRESS &&
         std::chrono::steady_clock::now() < deadline) {
    const int64_t now = now_ns();
    if (ucp_worker_progress(w) != 0)
      last_event_ns = now;
    else
      nap_when_quiet(now - last_event_ns, kSetupNapMaxNs);
  }
  return s;
}

}  // namespace dlcnet::ucx
