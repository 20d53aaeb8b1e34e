// The one view of a message that every tool reports and dlc-compare joins against simulators:
// who sent it to whom, how large, when the sender posted it and how long it took to arrive,
// all on rank 0's clock, with the bound of the clock error.
#pragma once

#include <cstdint>

namespace dlcnet {

// One message as its receiver saw it, on rank 0's clock.
struct Flow {
  int32_t src = 0, dst = 0;
  int32_t key = -1, opnum = 0;
  uint64_t bytes = 0;
  double start_ns = 0;  // sender's post, on rank 0's clock
  double fct_ns = 0;    // arrival at the receiver minus start: the one-way latency
  double bound_ns = 0;  // |error of fct| <= bound (sum of both ranks' clock bounds)
};

}  // namespace dlcnet
