#include "core/table.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>

#include "core/error.hpp"

namespace dlcnet {

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) {
    throw Error("table: row has " + std::to_string(cells.size()) + " cells, header has " +
                std::to_string(columns_.size()));
  }
  rows_.push_back(std::move(cells));
}

void Table::print(std::ostream& out) const {
  std::vector<size_t> width(columns_.size());
  bool any_unit = false;
  for (size_t c = 0; c < columns_.size(); ++c) {
    width[c] = std::max({min_width_, columns_[c].name.size(), columns_[c].unit.size() + 2});
    any_unit = any_unit || !columns_[c].unit.empty();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](auto cell) {
    for (size_t c = 0; c < columns_.size(); ++c) {
      out << (c == 0 ? " " : "   ") << std::setw(static_cast<int>(width[c])) << cell(c);
    }
    out << '\n';
  };
  line([&](size_t c) { return columns_[c].name; });
  if (any_unit) {
    line([&](size_t c) {
      return columns_[c].unit.empty() ? std::string() : "[" + columns_[c].unit + "]";
    });
  }
  for (const auto& row : rows_) line([&](size_t c) { return row[c]; });
}

void Table::print_header(std::ostream& out) const {
  Table head(columns_, min_width_);
  head.print(out);
}

void Table::print_row(std::ostream& out, const std::vector<std::string>& cells) const {
  if (cells.size() != columns_.size()) {
    throw Error("table: row has " + std::to_string(cells.size()) + " cells, header has " +
                std::to_string(columns_.size()));
  }
  for (size_t c = 0; c < columns_.size(); ++c) {
    const size_t w = std::max({min_width_, columns_[c].name.size(), columns_[c].unit.size() + 2});
    out << (c == 0 ? " " : "   ") << std::setw(static_cast<int>(w)) << cells[c];
  }
  out << '\n';
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

}  // namespace dlcnet
