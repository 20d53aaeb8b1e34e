#include "core/number.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "core/error.hpp"

namespace dlcnet {
namespace {

[[noreturn]] void fail(std::string_view what, std::string_view text, const std::string& why,
                       const std::string& range) {
  throw Error(std::string(what) + ": '" + std::string(text) + "' " + why + " (expected " + range +
              ")");
}

template <typename T>
std::string range_text(const char* kind, T lo, T hi) {
  std::ostringstream s;
  s << kind << " from " << lo << " to " << hi;
  return s.str();
}

// Strips one leading '+' (users type it; from_chars does not take it).
std::string_view unplus(std::string_view t) {
  if (t.size() > 1 && t.front() == '+' && t[1] != '-' && t[1] != '+') t.remove_prefix(1);
  return t;
}

template <typename T>
T parse_whole(std::string_view text, std::string_view what, T lo, T hi) {
  const std::string range = range_text("a whole number", lo, hi);
  const std::string_view t = unplus(text);
  if constexpr (std::is_unsigned_v<T>) {
    if (!t.empty() && t.front() == '-') fail(what, text, "is negative", range);
  }
  T v{};
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range) fail(what, text, "is out of range", range);
  if (ec != std::errc() || p != t.data() + t.size() || t.empty()) {
    fail(what, text, "is not a whole number", range);
  }
  if (v < lo || v > hi) fail(what, text, "is out of range", range);
  return v;
}

template <typename F>
std::string problem(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return std::string(e.what()).substr(2);  // without the empty name's ": "
  }
  return {};
}

}  // namespace

int64_t parse_integer(std::string_view text, std::string_view what, int64_t lo, int64_t hi) {
  return parse_whole<int64_t>(text, what, lo, hi);
}

uint64_t parse_unsigned(std::string_view text, std::string_view what, uint64_t lo, uint64_t hi) {
  return parse_whole<uint64_t>(text, what, lo, hi);
}

double parse_real(std::string_view text, std::string_view what, double lo, double hi) {
  const std::string range = range_text("a finite number", lo, hi);
  const std::string_view t = unplus(text);
  double v = 0;
  const auto [p, ec] =
      std::from_chars(t.data(), t.data() + t.size(), v, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) fail(what, text, "is out of range", range);
  if (ec != std::errc() || p != t.data() + t.size() || t.empty()) {
    fail(what, text, "is not a number", range);
  }
  if (!std::isfinite(v)) fail(what, text, "is not finite", range);
  if (v < lo || v > hi) fail(what, text, "is out of range", range);
  return v;
}

std::string integer_problem(std::string_view text, int64_t lo, int64_t hi) {
  return problem([&] { parse_integer(text, "", lo, hi); });
}

std::string unsigned_problem(std::string_view text, uint64_t lo, uint64_t hi) {
  return problem([&] { parse_unsigned(text, "", lo, hi); });
}

std::string real_problem(std::string_view text, double lo, double hi) {
  return problem([&] { parse_real(text, "", lo, hi); });
}

}  // namespace dlcnet
