// Does a calibration describe the fabric a run measured? Held against the run's own messages:
// the fastest of them (measured fct, HPCC's meaning, over the calibration's idle-network fct,
// model::standalone_fct_s) should be close to 1. Far below, the run was faster than the
// calibration's idle fabric allows (a calibration of a slower fabric); far above, even the
// fastest message took several idle times (a calibration of a faster fabric: shared memory
// held against a rate-limited star gives -98% errors). dlc-compare prints the warning and puts
// it in the JSON; the comparison itself goes on.
#pragma once

#include <optional>
#include <string>

#include "flows/flow_map.hpp"
#include "model/calibration.hpp"

namespace dlcnet::compare {

inline constexpr double kFastestBelow = 0.5;  // the fastest message under half the idle time
inline constexpr double kFastestAbove = 3.0;  // the fastest message over 3 idle times

// The fastest message's measured over idle fct, and a warning when outside the bounds above;
// nullopt when no message has a positive latency.
struct CalibrationCheck {
  double fastest_ratio = 0;
  std::string warning;  // empty: the calibration fits
};
std::optional<CalibrationCheck> check_calibration(const FlowMap& map, const model::Calibration& c);

}  // namespace dlcnet::compare
