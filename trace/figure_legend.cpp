#include "trace/figure_legend.hpp"

#include <array>

namespace dlcnet::trace {
namespace {

// Long times (an iteration and its parts, whole milliseconds in real captures) in msec with
// the capture's microsecond resolution; the servers' per-key times (tens of microseconds) in
// usec.
constexpr std::array<FigureInfo, 11> kFigures{{
    {"iter_time", "msec",
     "iteration time = phase 1 + phase 3: last pull reply of the previous iteration to the last "
     "pull reply of this one"},
    {"computation", "msec",
     "phase 1 + phase 2: last pull reply of the previous iteration to the last push of this one"},
    {"communication", "msec", "phase 3: first push to last pull reply of the iteration"},
    {"phase1", "msec",
     "computation alone: last pull reply of the previous iteration to the first push"},
    {"phase2", "msec", "computation overlapped with pushes: first to last push of the iteration"},
    {"overlap", "%", "overlap ratio = phase 2 / iteration time"},
    {"wait", "msec", "first to last pull reply of the iteration, at the worker"},
    {"sync", "msec", "synchronisation: first to last push received by the server in the iteration"},
    {"update", "usec", "per key: the last push received to the first acknowledgement sent (mean)"},
    {"update_max", "usec", "the same, the largest over the keys"},
    {"search", "usec", "a pull request received to its reply sent, at the server (mean)"},
}};

}  // namespace

const FigureInfo& figure_info(Figure f) noexcept {
  return kFigures[static_cast<size_t>(f)];
}

Column figure_column(Figure f) {
  const FigureInfo& i = figure_info(f);
  return {std::string(i.name), std::string(i.unit)};
}

std::string figure_text(Figure f, double value) {
  const std::string_view unit = figure_info(f).unit;
  if (unit == "%") return fixed(value * 100, 1);
  if (unit == "usec") return fixed(value * 1e6, 1);
  return fixed(value * 1e3, 3);
}

void print_figure_legend(std::ostream& out, std::span<const Figure> figures) {
  out << "# legend (SketchDLC, Xu et al., ACM TACO 2019, sections 4.2 and 5.3; times from each "
         "node's own clock):\n";
  for (const Figure f : figures) {
    const FigureInfo& i = figure_info(f);
    out << "#   " << i.name << " [" << i.unit << "]: " << i.definition << '\n';
  }
}

}  // namespace dlcnet::trace
