#include "model/fluid_queue.hpp"

#include <algorithm>
#include <cmath>

namespace dlcnet::model {
namespace {

// A queue within this many bytes of its buffer is full, within this of 0 empty: the fluid
// arithmetic leaves rounding residue of that order on rates of GB/s over microseconds.
constexpr double kBytesEpsilon = 1e-6;

}  // namespace

double FluidQueue::slope() const noexcept {
  const double s = in_ - rate_;
  if (s > 0) return full() ? 0 : s;
  return bytes_ > kBytesEpsilon ? s : 0;
}

void FluidQueue::advance(double dt) {
  if (dt <= 0) return;
  const double s = slope();
  bytes_ = std::clamp(bytes_ + s * dt, 0.0, buffer_);
  if (bytes_ < kBytesEpsilon) bytes_ = 0;
  if (buffer_ - bytes_ < kBytesEpsilon) bytes_ = buffer_;
  max_ = std::max(max_, bytes_);
}

void FluidQueue::set_input(double t_s, double in_Bps) {
  in_ = in_Bps;
  const double s = slope();
  if (s != last_slope_) {
    if (!corners_.empty() && corners_.back().t_s == t_s) corners_.pop_back();
    corners_.push_back({t_s, bytes_});
    last_slope_ = s;
  }
}

double FluidQueue::next_change() const noexcept {
  const double s = slope();
  if (s > 0) return (buffer_ - bytes_) / s;
  if (s < 0) return bytes_ / -s;
  return std::numeric_limits<double>::infinity();
}

void FluidQueue::settle(double slack_s) noexcept {
  if (next_change() > slack_s) return;
  bytes_ = slope() > 0 ? buffer_ : 0;
  max_ = std::max(max_, bytes_);
}

bool FluidQueue::full() const noexcept {
  return buffer_ - bytes_ < kBytesEpsilon;
}

std::vector<QueuePoint> FluidQueue::trace(double t_s) const {
  std::vector<QueuePoint> out = corners_;
  if (out.empty() || out.back().t_s < t_s) out.push_back({t_s, bytes_});
  return out;
}

}  // namespace dlcnet::model
