// Token buckets on the model's links (docs/model.md, "Token buckets"): a link whose bucket
// holds tokens serves at the burst rate (a veth's speed, as the star's tbf lets its burst
// through) and spends a byte of tokens per byte served beyond its rate; below its rate it
// gains them back up to the bucket's depth. A fluid version of tc's tbf: the rate a link
// offers the max-min solver changes only at the model's events and when a bucket in use runs
// dry, which next_change() gives as an event of its own.
#pragma once

#include <span>
#include <vector>

namespace dlcnet::model {

class LinkBuckets {
 public:
  // `rate[l]` the links' rates, `depth[l]` their buckets in bytes (0: none), full at the start;
  // `burst_Bps` the rate of a link while its bucket holds tokens (at least its rate).
  LinkBuckets(std::span<const double> rate, std::span<const double> depth, double burst_Bps);

  bool any() const noexcept { return any_; }
  // The rate every link offers now.
  void offered(std::span<double> out) const noexcept;
  // The bytes per second crossing every link at the rates just solved.
  void set_load(std::span<const double> load) noexcept;
  // Seconds until a bucket in use runs dry at these loads (+infinity: none).
  double next_change() const noexcept;
  // Time passes at these loads.
  void advance(double dt) noexcept;

 private:
  std::vector<double> rate_, depth_, tokens_, load_;
  double burst_Bps_ = 0;
  bool any_ = false;
};

}  // namespace dlcnet::model
