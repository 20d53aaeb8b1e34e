// The per-iteration figures that `dlc-trace stats` and `dlc-replay` print: one name, one unit
// and one definition each, so that both tools' tables say the same thing and a reader can
// check them. The definitions are SketchDLC's (Xu et al., "SketchDLC: A Sketch on Distributed
// Deep Learning Communication via Trace Capturing", ACM TACO 2019, sections 4.2 and 5.3), as
// trace/trace_stats.hpp computes them, each from one node's own clock.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "core/table.hpp"

namespace dlcnet::trace {

enum class Figure : uint8_t {
  kIterTime,       // phase 1 + phase 3
  kComputation,    // phase 1 + phase 2
  kCommunication,  // phase 3
  kPhase1,
  kPhase2,
  kOverlap,  // phase 2 / iteration time
  kWait,
  kSync,
  kUpdate,
  kUpdateMax,
  kSearch,
};

struct FigureInfo {
  std::string_view name;        // the column's name, in both tools
  std::string_view unit;        // the column's unit: "msec", "usec" or "%"
  std::string_view definition;  // one line
};

const FigureInfo& figure_info(Figure f) noexcept;
// The table column {name, unit}.
Column figure_column(Figure f);
// A value held in seconds (a ratio for kOverlap) as the column's text: msec and usec with
// microsecond and 0.1 us resolution, percent with one decimal.
std::string figure_text(Figure f, double value);
// "# legend (SketchDLC, ACM TACO 2019, 4.2 and 5.3; each node's own clock):" then one
// "#   name [unit]: definition" line per figure.
void print_figure_legend(std::ostream& out, std::span<const Figure> figures);

}  // namespace dlcnet::trace
