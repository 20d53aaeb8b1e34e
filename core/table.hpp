// The console table every tool prints: perftest-style column names, a units line under them,
// right-aligned numbers. Formatting only; callers convert units before adding rows.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace dlcnet {

struct Column {
  std::string name;
  std::string unit;  // printed on the units line, e.g. "usec", "Gb/sec"; empty for none
};

class Table {
 public:
  // Every column is at least `min_width` wide, so tables printed row by row line up.
  explicit Table(std::vector<Column> columns, size_t min_width = 0)
      : columns_(std::move(columns)), min_width_(min_width) {}
  // Throws Error if the row's width differs from the header's.
  void add_row(std::vector<std::string> cells);
  void print(std::ostream& out) const;
  // Streaming: the header (names and units) now and each row as it comes, every column as
  // wide as its name, unit and min_width (a longer cell widens only its own row).
  void print_header(std::ostream& out) const;
  void print_row(std::ostream& out, const std::vector<std::string>& cells) const;
  size_t rows() const noexcept { return rows_.size(); }

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
  size_t min_width_ = 0;
};

// Fixed-point text with `decimals` digits, e.g. fixed(18.2345, 2) == "18.23".
std::string fixed(double value, int decimals);

}  // namespace dlcnet
