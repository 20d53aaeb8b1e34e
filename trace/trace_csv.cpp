#include "trace/trace_csv.hpp"

#include "trace/trace_native.hpp"

namespace dlcnet::trace {

NativeMagic read_native_magic(std::string_view line, std::string_view form) {
  NativeMagic m;
  if (line.starts_with(kUtf8Bom)) {
    m.error =
        "the file starts with a UTF-8 byte-order mark (bytes EF BB BF): save it without one "
        "(the first line must be '" +
        std::string(form) + "')";
    return m;
  }
  if (!line.starts_with(kNativePrefix)) {
    m.problem = Problem::kNotATrace;
    m.error = "not a dlcnet native trace: the first line must be '" + std::string(form) + "'";
    return m;
  }
  Tokenizer t(line.substr(kNativePrefix.size()));
  std::string_view tok;
  int version = 0;
  if (!t.next(tok) || !parse_int(tok, version) || version < 1) {
    m.error =
        "the first line must be '" + std::string(form) + "': found version '" + excerpt(tok) + "'";
    return m;
  }
  m.version = version;
  m.rest = t.rest();
  return m;
}

std::string CsvColumns::read(std::string_view line) {
  at_.assign(names_.size(), -1);
  int i = 0;
  size_t at = 0;
  for (;;) {
    const size_t comma = line.find(',', at);
    const std::string_view name = Tokenizer(line.substr(at, comma - at)).rest();
    for (size_t c = 0; c < names_.size(); ++c) {
      if (names_[c] != name) continue;
      if (at_[c] >= 0) {
        return "column '" + std::string(name) + "' appears twice (columns " +
               std::to_string(at_[c] + 1) + " and " + std::to_string(i + 1) + ")";
      }
      at_[c] = i;
    }
    ++i;
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
  return {};
}

void split_fields(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  size_t at = 0;
  for (;;) {
    const size_t comma = line.find(',', at);
    out.push_back(Tokenizer(line.substr(at, comma - at)).rest());
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
}

}  // namespace dlcnet::trace
