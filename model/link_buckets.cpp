#include "model/link_buckets.hpp"

#include <algorithm>
#include <limits>

namespace dlcnet::model {
namespace {

constexpr double kNoDryTime = std::numeric_limits<double>::infinity();
// A bucket with fewer tokens than this is empty: a link served at its rate keeps its bucket
// empty, and rounding residues of a few bytes must not lift it to the burst rate.
constexpr double kMinBucketTokens = 1.0;

}  // namespace

LinkBuckets::LinkBuckets(std::span<const double> rate, std::span<const double> depth,
                         double burst_Bps)
    : rate_(rate.begin(), rate.end()),
      depth_(rate.size(), 0),
      tokens_(rate.size(), 0),
      load_(rate.size(), 0),
      burst_Bps_(burst_Bps) {
  for (size_t l = 0; l < rate.size() && l < depth.size(); ++l) {
    if (depth[l] >= kMinBucketTokens && burst_Bps > rate[l]) {
      depth_[l] = tokens_[l] = depth[l];
      any_ = true;
    }
  }
}

void LinkBuckets::offered(std::span<double> out) const noexcept {
  for (size_t l = 0; l < rate_.size(); ++l)
    out[l] = tokens_[l] >= kMinBucketTokens ? burst_Bps_ : rate_[l];
}

void LinkBuckets::set_load(std::span<const double> load) noexcept {
  std::copy(load.begin(), load.begin() + static_cast<std::ptrdiff_t>(load_.size()), load_.begin());
}

double LinkBuckets::next_change() const noexcept {
  double t = kNoDryTime;
  for (size_t l = 0; l < rate_.size(); ++l) {
    if (tokens_[l] >= kMinBucketTokens && load_[l] > rate_[l])
      t = std::min(t, tokens_[l] / (load_[l] - rate_[l]));
  }
  return t;
}

void LinkBuckets::advance(double dt) noexcept {
  for (size_t l = 0; l < rate_.size(); ++l) {
    if (depth_[l] == 0) continue;
    double t = tokens_[l] + (rate_[l] - load_[l]) * dt;
    // Run dry within rounding of this step's end: empty.
    if (t < kMinBucketTokens) t = 0;
    tokens_[l] = std::min(depth_[l], t);
  }
}

}  // namespace dlcnet::model
