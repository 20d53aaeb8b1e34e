#include "core/release_report.hpp"

namespace dlcnet {

const char* to_string(Release r) noexcept {
  return r == Release::instant ? "instant" : "barrier";
}

std::optional<Release> release_from_string(std::string_view s) noexcept {
  if (s == "barrier") return Release::barrier;
  if (s == "instant") return Release::instant;
  return std::nullopt;
}

nlohmann::json ReleaseReport::to_json() const {
  nlohmann::json per = nlohmann::json::array();
  for (size_t r = 0; r < ranks.size(); ++r) {
    per.push_back({{"rank", r},
                   {"at_s", ranks[r].at_ns * 1e-9},
                   {"late_s", ranks[r].late_ns * 1e-9},
                   {"bound_s", ranks[r].bound_ns * 1e-9}});
  }
  return {{"mode", to_string(mode)},
          {"lead_s", lead_ns * 1e-9},
          {"target_s", target_ns * 1e-9},
          {"skew_s", skew_ns * 1e-9},
          {"skew_bound_s", skew_bound_ns * 1e-9},
          {"latest_rank", latest_rank},
          {"ranks", per}};
}

}  // namespace dlcnet
