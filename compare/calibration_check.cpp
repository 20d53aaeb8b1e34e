#include "compare/calibration_check.hpp"

#include <cstdio>
#include <limits>

#include "model/hpcc_prediction.hpp"

namespace dlcnet::compare {

std::optional<CalibrationCheck> check_calibration(const FlowMap& map, const model::Calibration& c) {
  double best = std::numeric_limits<double>::infinity();
  for (const MappedFlow& f : map.flows) {
    const double idle = model::standalone_fct_s(f.size, c);
    if (!(f.latency_ns > 0) || !(idle > 0)) continue;
    const double ratio = (f.latency_ns * 1e-9 + c.base_latency_s) / idle;
    if (ratio < best) best = ratio;
  }
  if (best == std::numeric_limits<double>::infinity()) return std::nullopt;
  CalibrationCheck out{best, {}};
  char text[320];
  if (best < kFastestBelow) {
    std::snprintf(text, sizeof text,
                  "the run's fastest message took %.3g of the calibration's idle-network time: "
                  "the calibration describes a slower fabric than this run's",
                  best);
    out.warning = text;
  } else if (best > kFastestAbove) {
    std::snprintf(text, sizeof text,
                  "even the run's fastest message took %.3g times the calibration's "
                  "idle-network time: the calibration describes a faster fabric than this "
                  "run's (its \"source\" says where it was taken), or no message ran alone",
                  best);
    out.warning = text;
  }
  return out;
}

}  // namespace dlcnet::compare
