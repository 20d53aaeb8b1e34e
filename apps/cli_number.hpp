// CLI11 checks for every numeric option of the tools: the text goes through core/number.hpp's
// checked parser before CLI11 converts it, so `-n -1` (which strtoull wraps to 2^64-1), `nan`,
// `inf`, `1e400` and values outside the option's range are refused with the option's name and
// the accepted range, and exit code 2 like any other bad option.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "core/number.hpp"

namespace dlcnet::cli {

// Whole numbers in [lo, hi]; hi defaults to what T holds.
template <typename T>
CLI::Validator whole(T lo, T hi = std::numeric_limits<T>::max()) {
  static_assert(std::is_integral_v<T>);
  auto check = [lo, hi](std::string& text) -> std::string {
    if constexpr (std::is_unsigned_v<T>) {
      return unsigned_problem(text, static_cast<uint64_t>(lo), static_cast<uint64_t>(hi));
    } else {
      return integer_problem(text, static_cast<int64_t>(lo), static_cast<int64_t>(hi));
    }
  };
  return CLI::Validator(check, "INT in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
}

// Finite reals in [lo, hi].
inline CLI::Validator real(double lo, double hi) {
  auto check = [lo, hi](std::string& text) -> std::string { return real_problem(text, lo, hi); };
  return CLI::Validator(check, "finite number");
}

}  // namespace dlcnet::cli
