#include "trace/trace_sketch_header.hpp"

#include "trace/trace_text.hpp"

namespace dlcnet::trace {
namespace {

// The integer after "<name>" and an '=' with any spaces around it: "num_workers: = 2".
std::optional<int32_t> value_after(std::string_view line, std::string_view name) {
  const size_t at = line.find(name);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(at + name.size());
  while (!rest.empty() && (is_space(rest.front()) || rest.front() == '=')) rest.remove_prefix(1);
  int32_t v = 0;
  if (!take_int(rest, v)) return std::nullopt;
  return v;
}

std::optional<std::string> word_after(std::string_view line, std::string_view name) {
  const size_t at = line.find(name);
  if (at == std::string_view::npos) return std::nullopt;
  Tokenizer t(line.substr(at + name.size()));
  std::string_view tok;
  if (!t.next(tok)) return std::string();
  return std::string(tok);
}

}  // namespace

bool is_rule_line(std::string_view line) noexcept {
  size_t n = 0;
  for (char c : line) {
    if (c == '=') {
      ++n;
    } else if (!is_space(c)) {
      return false;
    }
  }
  return n >= 3;
}

void parse_header_line(std::string_view line, SketchHeader& header) {
  if (auto w = value_after(line, "num_workers:")) header.num_workers = *w;
  if (auto s = value_after(line, "num_servers:")) header.num_servers = *s;
  if (auto h = word_after(line, "worker_hostname:=")) {
    header.hostname = *h;
    header.role = Role::kWorker;
  }
  if (auto h = word_after(line, "server_hostname:=")) {
    header.hostname = *h;
    header.role = Role::kServer;
  }
}

bool is_column_line(std::string_view line) noexcept {
  Tokenizer have(line);
  Tokenizer want(kColumnLine);
  std::string_view a;
  std::string_view b;
  for (;;) {
    const bool more_a = have.next(a);
    const bool more_b = want.next(b);
    if (!more_a || !more_b) return more_a == more_b;
    if (a != b) return false;
  }
}

bool starts_with_id(std::string_view line) noexcept {
  Tokenizer t(line);
  std::string_view tok;
  return t.next(tok) && tok == "ID";
}

}  // namespace dlcnet::trace
