#include "compare/group_errors.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace dlcnet::compare {
namespace {

struct Span {
  uint64_t messages = 0;
  double first_start = std::numeric_limits<double>::max();
  double first_predicted = std::numeric_limits<double>::max();
  double last_measured = std::numeric_limits<double>::lowest();
  double last_predicted = std::numeric_limits<double>::lowest();
};

}  // namespace

std::vector<GroupError> group_errors(std::span<const Matched> matched) {
  std::map<int32_t, Span> spans;
  for (const Matched& m : matched) {
    if (m.group < 0) continue;
    Span& s = spans[m.group];
    ++s.messages;
    s.first_start = std::min(s.first_start, m.start_ns);
    s.first_predicted = std::min(s.first_predicted, m.predicted_start_ns);
    s.last_measured = std::max(s.last_measured, m.start_ns + m.measured_ns - m.ack_ns);
    s.last_predicted = std::max(s.last_predicted, m.predicted_start_ns + m.predicted_ns - m.ack_ns);
  }
  std::vector<GroupError> out;
  out.reserve(spans.size());
  for (const auto& [g, s] : spans) {
    out.push_back({g, s.messages, (s.last_measured - s.first_start) * 1e-9,
                   (s.last_predicted - s.first_predicted) * 1e-9});
  }
  return out;
}

}  // namespace dlcnet::compare
