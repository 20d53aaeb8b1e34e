// The fluid queue of the bottleneck port: bytes arrive at the sum of the rates of the flows
// towards the port's host and leave at the port's rate whenever the queue holds any. The
// length is piecewise linear in time; its corners are kept as the queue's trace.
#pragma once

#include <limits>
#include <vector>

namespace dlcnet::model {

struct QueuePoint {
  double t_s = 0;
  double bytes = 0;
};

class FluidQueue {
 public:
  FluidQueue(double rate_Bps, double buffer_bytes) : rate_(rate_Bps), buffer_(buffer_bytes) {}

  // Moves time forward by dt at the current input rate.
  void advance(double dt);
  // A new input rate from `t_s` on (records a corner of the trace when the slope changes).
  void set_input(double t_s, double in_Bps);
  // Time from now until the queue fills or empties at the current input; +inf if never.
  double next_change() const noexcept;
  // Fills or empties the queue if that is less than `slack_s` away (too close to tell apart).
  void settle(double slack_s) noexcept;

  bool full() const noexcept;
  double bytes() const noexcept { return bytes_; }
  double rate() const noexcept { return rate_; }
  double max_bytes() const noexcept { return max_; }
  // How long a byte entering now waits: the bytes ahead of it over the port's rate.
  double wait_s() const noexcept { return bytes_ / rate_; }
  // The trace up to `t_s` (closes it with the length at that time).
  std::vector<QueuePoint> trace(double t_s) const;

 private:
  double slope() const noexcept;
  double rate_, buffer_;
  double in_ = 0, bytes_ = 0, max_ = 0;
  double last_slope_ = std::numeric_limits<double>::quiet_NaN();
  std::vector<QueuePoint> corners_;
};

}  // namespace dlcnet::model
