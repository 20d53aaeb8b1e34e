// A calibration (model/calibration.hpp) from dlc-bench's own reports on the fabric at hand:
// `dlc-bench lat` (half the ping-pong round trip per size) and `dlc-bench bw` (streaming rate
// per size), docs/model.md "Calibration from dlc-bench":
//   base_latency_s  the lat run's fastest one-way time (min) at its smallest size: the idle
//                   network, without the scheduling noise a loaded host adds to the median;
//   link_rate_Bps   from the bw run: the best steady rate of its sizes (its second half's;
//                   the average in a report without it), payload per second, so the packet
//                   header is 0: the rate already is goodput. From the star (a bw report
//                   taken on a namespace star, model/star_link.hpp): the star's tbf rate of
//                   frames, with the packet of its TCP segments (MTU - 52 B of payload, 66 B
//                   of headers);
//   overhead_by_size  per lat size s: max(0, min(s) - base latency - wire(s) / rate), what a
//                   message of s bytes costs beyond latency and serialisation.
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

// Where the link rate comes from: `automatic` is the star when a bw report ran on one, else the
// bw run (docs/compare.md, "A calibration from dlc-bench").
enum class LinkRateFrom { automatic, bw, star };

// Throws Error naming the file and key of a report that is not dlc-bench's, when no lat or no
// bw report is among them, and for LinkRateFrom::star when no bw report ran on a star. When
// `chosen` is given it receives what was chosen and both rates ("link_rate" of the
// calibration's JSON).
Calibration calibration_from_bench(const std::vector<BenchReport>& reports,
                                   LinkRateFrom from = LinkRateFrom::bw,
                                   nlohmann::json* chosen = nullptr);

}  // namespace dlcnet::model
