// The CSV side of dlcnet's native trace format (docs/native-trace-format.md), shared by the
// version 1 reader (trace_native_reader.cpp) and the version 2 one (trace/chakra/): the first
// line's magic and version, columns found by name, a row cut into trimmed fields, and lists of
// ids separated by ';'.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_diagnostics.hpp"
#include "trace/trace_text.hpp"

namespace dlcnet::trace {

// The first line "# dlcnet-trace <version> ...": `version` (>= 1) and `rest` (the tokens after
// it) when it reads; else version 0 and `problem`/`error` say why (a byte-order mark, not a
// native file, no version). `form` is the first line as the reader expects it, for the error.
struct NativeMagic {
  int version = 0;
  std::string_view rest;
  Problem problem = Problem::kBadHeader;
  std::string error;
};
NativeMagic read_native_magic(std::string_view line, std::string_view form);

// Columns found by name in a column line, in any order; unknown names are ignored.
class CsvColumns {
 public:
  explicit CsvColumns(std::span<const std::string_view> names) : names_(names) {}
  // Reads the column line; empty, or the error when a column appears twice.
  std::string read(std::string_view line);
  bool has(size_t c) const noexcept { return at_[c] >= 0; }
  // Column c of a row split by split_fields(); empty when the column or the field is absent.
  std::string_view field(const std::vector<std::string_view>& fields, size_t c) const noexcept {
    const int i = at_[c];
    return i >= 0 && static_cast<size_t>(i) < fields.size() ? fields[static_cast<size_t>(i)]
                                                            : std::string_view();
  }
  std::string_view name(size_t c) const noexcept { return names_[c]; }

 private:
  std::span<const std::string_view> names_;
  std::vector<int> at_;
};

// The line's fields, cut at commas (no quoting), spaces around each removed.
void split_fields(std::string_view line, std::vector<std::string_view>& out);

// Integers separated by ';' (or spaces), appended to `out`; false (and `out` as it was) on a
// token that is not one.
template <typename T>
bool parse_id_list(std::string_view s, std::vector<T>& out) {
  const size_t before = out.size();
  while (!s.empty()) {
    const size_t sep = s.find_first_of("; ");
    const std::string_view tok = s.substr(0, sep);
    s = sep == std::string_view::npos ? std::string_view() : s.substr(sep + 1);
    if (tok.empty()) continue;
    T v{};
    if (!parse_int(tok, v)) {
      out.resize(before);
      return false;
    }
    out.push_back(v);
  }
  return true;
}

}  // namespace dlcnet::trace
