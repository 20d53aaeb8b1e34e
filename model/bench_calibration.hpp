// A calibration (model/calibration.hpp) from dlc-bench's own reports on the fabric at hand:
// `dlc-bench lat` (half the ping-pong round trip per size) and `dlc-bench bw` (streaming rate
// per size), docs/model.md "Calibration from dlc-bench":
//   base_latency_s  the lat run's fastest one-way time (min) at its smallest size: the idle
//                   network, without the scheduling noise a loaded host adds to the median;
//   link_rate_Bps   the best steady rate of the bw run's sizes (its second half's; the
//                   average in a report without it), payload per second, so the packet
//                   header is 0: the rate already is goodput;
//   overhead_by_size  per lat size s: max(0, min(s) - base latency - s / rate), what a message
//                   of s bytes costs beyond latency and serialisation.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/calibration.hpp"

namespace dlcnet::model {

struct BenchReport {
  std::string file;
  const nlohmann::json* doc = nullptr;
};

// Throws Error naming the file and key of a report that is not dlc-bench's, and when no lat
// or no bw report is among them.
Calibration calibration_from_bench(const std::vector<BenchReport>& reports);

}  // namespace dlcnet::model
