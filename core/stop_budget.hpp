// How a run spends its --timeout once the job stops making progress (a peer killed, frozen or
// stuck): every rank has exited, its error and its partial outputs written, within that time.
//
// The timeout S is split in two. The wait limit (S minus the reserve) is how long any wait for
// a peer lasts without progress before it fails; the settle reserve is kept for what follows
// the first failure: the ranks agree on its cause (rank 0 gathers their reports, twice as long
// when a rank seems frozen; the others wait for its verdict), write what they completed, close
// their connections and exit. The reserve is S / 4, at least 0.5 s and at most 4 s (never more
// than half of S), and is itself split into the agreement's windows so that they fit:
//   report window  reserve / 5   (rank 0, for each of at most 2 windows)
//   verdict wait   reserve / 2   (the others; past it rank 0 is named as stopped)
//   close limit    reserve / 5   (closing the transport's connections to a stopped peer)
// leaving a tenth for writing the outputs and the process's exit. E.g. --timeout 5: waits give
// up after 3.75 s, and the reserve is 1.25 s; --timeout 30: 26 s and 4 s.
#pragma once

#include <chrono>
#include <string>

namespace dlcnet {

struct StopBudget {
  std::chrono::milliseconds total{0};          // the user's --timeout
  std::chrono::milliseconds wait{0};           // a wait for a peer fails after this long
  std::chrono::milliseconds reserve{0};        // total - wait: settling, outputs, closing
  std::chrono::milliseconds report_window{0};  // rank 0 gathers failure reports (per window)
  std::chrono::milliseconds verdict_wait{0};   // the others wait for rank 0's verdict
  std::chrono::milliseconds close_limit{0};    // closing the connections at the end
};

StopBudget stop_budget(std::chrono::milliseconds total);
inline StopBudget stop_budget(int timeout_s) {
  return stop_budget(std::chrono::milliseconds(int64_t{timeout_s} * 1000));
}

// "3.75 s", "26 s": a limit as the error messages state it (at most 3 decimals, no trailing
// zeros).
std::string seconds_text(std::chrono::milliseconds ms);

}  // namespace dlcnet
