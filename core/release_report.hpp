// How the ranks of a job start their measured phase together, and the start each rank
// achieved, measured on rank 0's clock: plain data for the reports (the job layer,
// launch/job.hpp, does the release and fills it).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlcnet {

// How the measured phase starts. barrier: every rank leaves a bootstrap barrier, which rank 0
// releases one rank after the other (low ranks first: docs/architecture.md gives the skew
// measured). instant: rank 0 names an instant on its clock a little ahead, every rank waits
// for it on its own clock through the clock model of the round before.
enum class Release : uint8_t { barrier, instant };
const char* to_string(Release r) noexcept;
std::optional<Release> release_from_string(std::string_view s) noexcept;

// The release a rank achieved, on rank 0's clock (the clock models of both rounds).
struct RankRelease {
  double at_ns = 0;     // when the rank began its measured phase
  double late_ns = 0;   // at_ns minus the instant (instant), minus the earliest rank's (barrier)
  double bound_ns = 0;  // |error of at_ns| <= bound_ns (this rank's clock bound)
};
struct ReleaseReport {
  Release mode = Release::barrier;
  double lead_ns = 0;    // instant: how far ahead of rank 0's clock the instant was set
  double target_ns = 0;  // instant: the instant on rank 0's clock; barrier: the earliest at_ns
  std::vector<RankRelease> ranks;  // by rank
  double skew_ns = 0;              // latest at_ns minus earliest
  double skew_bound_ns = 0;        // |error of skew_ns| <= this: the two ranks' bounds added
  int latest_rank = 0;
  nlohmann::json to_json() const;
};

}  // namespace dlcnet
