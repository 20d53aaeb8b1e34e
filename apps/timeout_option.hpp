// What --timeout means, the same in every tool that runs ranks (dlc-bench and its fanin and
// ring, dlc-replay): core/stop_budget.hpp.
#pragma once

namespace dlcnet::cli {

// The largest --timeout (and --spawn-timeout) in seconds: a week, so that it fits an int in ms.
inline constexpr int kMaxTimeout = 7 * 86400;

inline constexpr const char* kTimeoutHelp =
    "seconds: once the job stops making progress (a peer gone, frozen or stuck), every rank has "
    "exited within this, its error and partial outputs written; a wait for a peer gives up "
    "after it minus a reserve (a quarter, 0.5 to 4 s) kept for agreeing on the cause and "
    "closing";

}  // namespace dlcnet::cli
