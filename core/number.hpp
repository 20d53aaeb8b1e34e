// Numbers as users type them on a command line: one checked parser for every numeric option of
// every tool. A whole token, decimal, finite, within the option's range; anything else (a sign
// an unsigned type would wrap, nan, inf, 1e400, trailing text, hex) is an error naming the
// option, the text and the accepted range.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dlcnet {

// An integer in [lo, hi]. Throws Error("<what>: '<text>' ...").
int64_t parse_integer(std::string_view text, std::string_view what, int64_t lo, int64_t hi);
// The same for unsigned values above INT64_MAX; a leading '-' is always an error.
uint64_t parse_unsigned(std::string_view text, std::string_view what, uint64_t lo, uint64_t hi);
// A finite real in [lo, hi] (decimal or exponent notation; no nan, inf, hex).
double parse_real(std::string_view text, std::string_view what, double lo, double hi);

// "" when `text` passes parse_integer/parse_unsigned/parse_real, else what is wrong with it
// ("'nan' is not finite (expected ...)"), for option validators that prefix the option's name.
std::string integer_problem(std::string_view text, int64_t lo, int64_t hi);
std::string unsigned_problem(std::string_view text, uint64_t lo, uint64_t hi);
std::string real_problem(std::string_view text, double lo, double hi);

}  // namespace dlcnet
