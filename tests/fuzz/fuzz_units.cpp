// libFuzzer target: the small parsers of user text. Sizes (-s 4K), the checked numbers every
// option goes through, Slurm hostlists (node[01-03,7]) and synth's --sizes list. Each either
// returns a value or throws Error; a size must round-trip through format_size.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/number.hpp"
#include "core/units.hpp"
#include "launch/rank_env.hpp"
#include "trace/trace_synth.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const uint64_t v = dlcnet::parse_size(text, "-s");
    if (dlcnet::parse_size(dlcnet::format_size(v), "-s") != v) __builtin_trap();
  } catch (const dlcnet::Error&) {
  }
  try {
    const int64_t v = dlcnet::parse_integer(text, "-n", -1000, 1000);
    if (v < -1000 || v > 1000) __builtin_trap();
  } catch (const dlcnet::Error&) {
  }
  try {
    (void)dlcnet::parse_unsigned(text, "-n", 1, UINT64_MAX);
  } catch (const dlcnet::Error&) {
  }
  try {
    const double v = dlcnet::parse_real(text, "-D", 1e-3, 1e6);
    if (!(v >= 1e-3 && v <= 1e6)) __builtin_trap();
  } catch (const dlcnet::Error&) {
  }
  try {
    (void)dlcnet::expand_hostlist(text);
  } catch (const dlcnet::Error&) {
  }
  try {
    (void)dlcnet::trace::model_from_sizes(std::string(text));
  } catch (const dlcnet::Error&) {
  }
  return 0;
}
